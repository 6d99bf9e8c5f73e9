package dev.proofline.engine;

/** Job priorities, highest first. */
public enum Priority { CRITICAL, HIGH, NORMAL, LOW }

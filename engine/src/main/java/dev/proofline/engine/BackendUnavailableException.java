package dev.proofline.engine;

/** A backend cannot be opened on this machine; the message is the reason, in one line. */
public final class BackendUnavailableException extends Exception {

    public BackendUnavailableException(String reason) {
        super(reason);
    }
}

package dev.proofline.daemon.store;

import java.sql.SQLException;

/**
 * Statements run on a database handle (a pooled PostgreSQL connection, a SQLite transaction) by the
 * store that owns the handle: the owner commits or rolls back, retries where that is safe, and turns a
 * failure into the caller's error.
 *
 * @param <H> the handle the statements run on
 * @param <T> what the statements return
 */
@FunctionalInterface
public interface SqlWork<H, T> {
    T run(H on) throws SQLException;
}

package dev.proofline.daemon.store.postgres;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.proofline.daemon.store.ClusterStore;
import dev.proofline.daemon.store.StoreContract;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInstance;

/**
 * The cluster's PostgreSQL job queue: the store's contract ({@link StoreContract}), each test on a
 * database of its own on a private server ({@link LocalPostgres}); skipped where PostgreSQL's server
 * programs are not installed.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PostgresStoreTest extends StoreContract {

    private LocalPostgres pg;
    private int databases;
    private String database;

    @BeforeAll
    void startPostgres() throws Exception {
        List<String> why = new ArrayList<>();
        var bin = LocalPostgres.programs(why);
        if (bin.isEmpty()) {
            System.out.println("SKIPPED (PostgreSQL store tests): " + why.getFirst());
        }
        assumeTrue(bin.isPresent(), () -> why.getFirst());
        pg = LocalPostgres.start(bin.get());
    }

    @AfterAll
    void stopPostgres() throws Exception {
        if (pg != null) {
            pg.close();
        }
    }

    @BeforeEach
    void newDatabase() throws Exception {
        database = pg.createDatabase("store_" + (++databases));
    }

    @Override
    protected ClusterStore openStore() {
        return PostgresStore.open(database, 2, Duration.ofSeconds(5));
    }
}

package dev.proofline.daemon.config;

import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Properties;

/** The cluster's database as {@code cluster.database} names it: its JDBC URL, and the URL for messages. */
public final class DatabaseUrl {

    private DatabaseUrl() {
    }

    /** The JDBC URL for a libpq-style URI (user and password go to {@code props}), or the JDBC URL as given. */
    public static String jdbcUrl(String database, Properties props) {
        if (database.startsWith("jdbc:postgresql:")) {
            return database;
        }
        if (!database.startsWith("postgresql://") && !database.startsWith("postgres://")) {
            throw new IllegalArgumentException("cluster.database: '" + redacted(database)
                    + "' is not a postgresql://user:password@host:port/database URL");
        }
        URI u = URI.create(database);
        if (u.getHost() == null) {
            throw new IllegalArgumentException("cluster.database: '" + redacted(database) + "' names no host");
        }
        if (u.getRawUserInfo() != null) {
            String[] up = u.getRawUserInfo().split(":", 2);
            props.setProperty("user", URLDecoder.decode(up[0], StandardCharsets.UTF_8));
            if (up.length == 2) {
                props.setProperty("password", URLDecoder.decode(up[1], StandardCharsets.UTF_8));
            }
        }
        String db = u.getRawPath() == null || u.getRawPath().length() <= 1 ? "postgres" : u.getRawPath().substring(1);
        return "jdbc:postgresql://" + u.getHost() + (u.getPort() > 0 ? ":" + u.getPort() : "") + "/" + db
                + (u.getRawQuery() != null ? "?" + u.getRawQuery() : "");
    }

    /** The URL without its password, for messages. */
    public static String redacted(String database) {
        return database.replaceAll("://([^:/@]+):[^@/]*@", "://$1:***@");
    }
}

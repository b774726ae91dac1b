package io.hbasesessions.benchmarks.tomcat;

import java.util.Locale;
import javax.sql.DataSource;
import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;
import org.springframework.session.jdbc.JdbcIndexedSessionRepository;

/**
 * Spring Session's tables on PostgreSQL, made from the script its jar ships when they are not there yet: Spring
 * Session leaves that to the application (Boot runs the script by itself only for embedded databases).
 */
final class SpringSessionSchema {

    static final String POSTGRESQL_SCRIPT = "org/springframework/session/jdbc/schema-postgresql.sql";

    private SpringSessionSchema() {
    }

    /** Runs the script unless the sessions table exists; the script creates both tables. */
    static void createIfMissing(DataSource dataSource) {
        Boolean exists = new JdbcTemplate(dataSource).queryForObject("SELECT to_regclass(?) IS NOT NULL", Boolean.class,
                JdbcIndexedSessionRepository.DEFAULT_TABLE_NAME.toLowerCase(Locale.ROOT));
        if (!Boolean.TRUE.equals(exists)) {
            new ResourceDatabasePopulator(new ClassPathResource(POSTGRESQL_SCRIPT,
                    JdbcIndexedSessionRepository.class.getClassLoader())).execute(dataSource);
        }
    }
}

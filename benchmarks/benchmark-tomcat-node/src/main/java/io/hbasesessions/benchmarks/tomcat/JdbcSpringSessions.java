package io.hbasesessions.benchmarks.tomcat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.springframework.core.convert.support.GenericConversionService;
import org.springframework.core.serializer.support.DeserializingConverter;
import org.springframework.core.serializer.support.SerializingConverter;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.support.SQLErrorCodeSQLExceptionTranslator;
import org.springframework.session.jdbc.JdbcIndexedSessionRepository;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Spring Session JDBC's {@link JdbcIndexedSessionRepository} on PostgreSQL through a HikariCP pool, built as
 * {@code @EnableJdbcHttpSession}'s configuration builds it: a JdbcTemplate translating the database's error codes,
 * each repository call in a transaction of its own (REQUIRES_NEW) on a DataSourceTransactionManager, attributes
 * serialized in Java form and read back with the application's class loader, and the library's defaults otherwise
 * (flush mode ON_SAVE, save mode ON_SET_ATTRIBUTE, 30 minutes idle, expired sessions deleted every minute).
 */
final class JdbcSpringSessions implements SpringSessionBackend {

    private final String jdbcUrl;
    private HikariDataSource pool;
    private JdbcIndexedSessionRepository repository;

    JdbcSpringSessions(String jdbcUrl) {
        this.jdbcUrl = jdbcUrl;
    }

    @Override
    public JdbcIndexedSessionRepository open(ClassLoader applicationClassLoader) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(jdbcUrl);
        config.setMaximumPoolSize(BenchmarkTomcatNode.JDBC_POOL_SIZE);
        pool = new HikariDataSource(config);
        SpringSessionSchema.createIfMissing(pool);
        repository = new JdbcIndexedSessionRepository(jdbcTemplate(), transactions());
        repository.setConversionService(javaSerialization(applicationClassLoader));
        repository.afterPropertiesSet();
        return repository;
    }

    private JdbcTemplate jdbcTemplate() {
        JdbcTemplate template = new JdbcTemplate(pool);
        template.setExceptionTranslator(new SQLErrorCodeSQLExceptionTranslator(pool));
        template.afterPropertiesSet();
        return template;
    }

    private TransactionTemplate transactions() {
        TransactionTemplate template = new TransactionTemplate(new DataSourceTransactionManager(pool));
        template.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
        template.afterPropertiesSet();
        return template;
    }

    private static GenericConversionService javaSerialization(ClassLoader applicationClassLoader) {
        GenericConversionService conversions = new GenericConversionService();
        conversions.addConverter(Object.class, byte[].class, new SerializingConverter());
        conversions.addConverter(byte[].class, Object.class, new DeserializingConverter(applicationClassLoader));
        return conversions;
    }

    @Override
    public void close() {
        if (repository != null) {
            repository.destroy();
        }
        if (pool != null) {
            pool.close();
        }
    }
}

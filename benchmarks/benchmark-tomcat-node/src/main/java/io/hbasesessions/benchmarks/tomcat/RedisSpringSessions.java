package io.hbasesessions.benchmarks.tomcat;

import java.util.List;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.listener.ChannelTopic;
import org.springframework.data.redis.listener.PatternTopic;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;
import org.springframework.data.redis.serializer.RedisSerializer;
import org.springframework.session.data.redis.RedisIndexedSessionRepository;
import org.springframework.session.data.redis.config.ConfigureNotifyKeyspaceEventsAction;

/**
 * Spring Session Data Redis's indexed repository, {@link RedisIndexedSessionRepository} (the one with
 * {@code findByPrincipalName}, as ours), on Redis through Lettuce, built as {@code @EnableRedisIndexedHttpSession}'s
 * configuration builds it: a RedisTemplate with string keys and Java serialization by the application's class loader,
 * keyspace notifications switched on in Redis ({@code notify-keyspace-events}), and a listener container that hears
 * of deleted, expired and created sessions; the library's defaults otherwise (flush mode ON_SAVE, save mode
 * ON_SET_ATTRIBUTE, 30 minutes idle, namespace {@code spring:session}, expiries cleaned up every minute).
 */
final class RedisSpringSessions implements SpringSessionBackend {

    private final RedisStandaloneConfiguration server;
    private LettuceConnectionFactory connections;
    private RedisIndexedSessionRepository repository;
    private RedisMessageListenerContainer listeners;

    /** {@code hostAndPort}: {@code 127.0.0.1:16379}. */
    RedisSpringSessions(String hostAndPort) {
        int colon = hostAndPort.lastIndexOf(':');
        this.server = new RedisStandaloneConfiguration(hostAndPort.substring(0, colon),
                Integer.parseInt(hostAndPort.substring(colon + 1)));
    }

    @Override
    public RedisIndexedSessionRepository open(ClassLoader applicationClassLoader) {
        connections = new LettuceConnectionFactory(server);
        connections.afterPropertiesSet();
        connections.start();
        repository = new RedisIndexedSessionRepository(template(applicationClassLoader));
        repository.setDatabase(connections.getDatabase());
        repository.afterPropertiesSet();
        try (RedisConnection connection = connections.getConnection()) {
            new ConfigureNotifyKeyspaceEventsAction().configure(connection);
        }
        listeners = new RedisMessageListenerContainer();
        listeners.setConnectionFactory(connections);
        listeners.addMessageListener(repository, List.of(new ChannelTopic(repository.getSessionDeletedChannel()),
                new ChannelTopic(repository.getSessionExpiredChannel())));
        listeners.addMessageListener(repository, List.of(new PatternTopic(repository.getSessionCreatedChannelPrefix()
                + "*")));
        listeners.afterPropertiesSet();
        listeners.start();
        return repository;
    }

    private RedisTemplate<String, Object> template(ClassLoader applicationClassLoader) {
        RedisTemplate<String, Object> template = new RedisTemplate<>();
        template.setKeySerializer(RedisSerializer.string());
        template.setHashKeySerializer(RedisSerializer.string());
        template.setConnectionFactory(connections);
        template.setBeanClassLoader(applicationClassLoader);
        template.afterPropertiesSet();
        return template;
    }

    @Override
    public void close() {
        if (listeners != null) {
            listeners.stop();
        }
        if (repository != null) {
            repository.destroy();
        }
        if (connections != null) {
            connections.destroy();
        }
    }
}

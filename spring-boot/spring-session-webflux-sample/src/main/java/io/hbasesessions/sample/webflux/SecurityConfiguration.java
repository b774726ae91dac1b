package io.hbasesessions.sample.webflux;

import io.hbasesessions.spring.session.HBaseSession;
import io.hbasesessions.spring.session.ReactiveHBaseIndexedSessionRepository;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.reactive.EnableWebFluxSecurity;
import org.springframework.security.config.web.server.ServerHttpSecurity;
import org.springframework.security.core.userdetails.MapReactiveUserDetailsService;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.web.server.SecurityWebFilterChain;
import org.springframework.security.web.server.authentication.SessionLimit;
import org.springframework.session.security.SpringSessionBackedReactiveSessionRegistry;

/**
 * Spring Security's reactive form login: the login (its {@code SecurityContext}) and the CSRF token live in the
 * {@code WebSession}, so in HBase, and every node sees them. At most one session per user across every node: the
 * session registry is Spring Session's over the reactive repository, whose {@code findByPrincipalName} sees the
 * sessions of every node, and a new login ends the user's least recently used one.
 */
@Configuration
@EnableWebFluxSecurity
public class SecurityConfiguration {

    @Bean
    SpringSessionBackedReactiveSessionRegistry<HBaseSession> sessionRegistry(
            ReactiveHBaseIndexedSessionRepository sessions) {
        return new SpringSessionBackedReactiveSessionRegistry<>(sessions, sessions);
    }

    @Bean
    SecurityWebFilterChain web(ServerHttpSecurity http,
            SpringSessionBackedReactiveSessionRegistry<HBaseSession> registry) {
        return http.authorizeExchange(exchanges -> exchanges.pathMatchers("/").permitAll().anyExchange().authenticated())
                .formLogin(Customizer.withDefaults())
                .logout(Customizer.withDefaults())
                .sessionManagement(sessions -> sessions.concurrentSessions(concurrency -> concurrency
                        .maximumSessions(SessionLimit.of(1)).sessionRegistry(registry)))
                .build();
    }

    /** Demo users; a real application has its own user store. */
    @Bean
    MapReactiveUserDetailsService users() {
        return new MapReactiveUserDetailsService(
                User.withUsername("alice").password("{noop}alice-password").roles("USER").build(),
                User.withUsername("bob").password("{noop}bob-password").roles("USER").build());
    }
}

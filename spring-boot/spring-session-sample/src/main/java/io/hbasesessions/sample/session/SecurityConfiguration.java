package io.hbasesessions.sample.session;

import io.hbasesessions.spring.session.HBaseIndexedSessionRepository;
import io.hbasesessions.spring.session.HBaseSession;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.session.security.SpringSessionBackedSessionRegistry;

/**
 * Spring Security's form login, at most one session per user across every node: the session registry is Spring
 * Session's over the HBase repository, whose {@code findByPrincipalName} sees the sessions of every node.
 */
@Configuration
public class SecurityConfiguration {

    @Bean
    SpringSessionBackedSessionRegistry<HBaseSession> sessionRegistry(HBaseIndexedSessionRepository sessions) {
        return new SpringSessionBackedSessionRegistry<>(sessions);
    }

    @Bean
    SecurityFilterChain web(HttpSecurity http, SpringSessionBackedSessionRegistry<HBaseSession> registry)
            throws Exception {
        http.authorizeHttpRequests(requests -> requests.requestMatchers("/").permitAll().anyRequest().authenticated())
                .formLogin(Customizer.withDefaults())
                .logout(Customizer.withDefaults())
                .sessionManagement(sessions -> sessions.maximumSessions(1).sessionRegistry(registry));
        return http.build();
    }

    /** Demo users; a real application has its own user store. */
    @Bean
    UserDetailsService users() {
        return new InMemoryUserDetailsManager(
                User.withUsername("alice").password("{noop}alice-password").roles("USER").build(),
                User.withUsername("bob").password("{noop}bob-password").roles("USER").build());
    }
}

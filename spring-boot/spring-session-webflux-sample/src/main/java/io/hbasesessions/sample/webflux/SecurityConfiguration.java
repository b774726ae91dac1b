package io.hbasesessions.sample.webflux;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.reactive.EnableWebFluxSecurity;
import org.springframework.security.config.web.server.ServerHttpSecurity;
import org.springframework.security.core.userdetails.MapReactiveUserDetailsService;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.web.server.SecurityWebFilterChain;

/**
 * Spring Security's reactive form login: the login (its {@code SecurityContext}) and the CSRF token live in the
 * {@code WebSession}, so in HBase, and every node sees them.
 */
@Configuration
@EnableWebFluxSecurity
public class SecurityConfiguration {

    @Bean
    SecurityWebFilterChain web(ServerHttpSecurity http) {
        return http.authorizeExchange(exchanges -> exchanges.pathMatchers("/").permitAll().anyExchange().authenticated())
                .formLogin(Customizer.withDefaults())
                .logout(Customizer.withDefaults())
                .build();
    }

    /** Demo users; a real application has its own user store. */
    @Bean
    MapReactiveUserDetailsService users() {
        return new MapReactiveUserDetailsService(
                User.withUsername("alice").password("{noop}alice-password").roles("USER").build(),
                User.withUsername("bob").password("{noop}bob-password").roles("USER").build(),
                User.withUsername("dora").password("{noop}dora-password").roles("USER").build());
    }
}

package io.hbasesessions.sample.session.war;

import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;
import java.util.Collections;
import java.util.TreeSet;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

/**
 * {@code /container-session}: a page on the container's own session (cookie {@code JSESSIONID}), as the parts of a WAR
 * that Spring Session's filter does not wrap have it. A filter ordered before Spring Session's answers it, so the
 * request it sees is the container's; it counts its visits in that session and lists the session's attribute names, one
 * {@code name=value} a line.
 */
@Configuration(proxyBeanMethods = false)
public class ContainerSessionPage {

    private static final String VISITS = "visits";

    @Bean
    FilterRegistrationBean<Filter> containerSessionPageFilter() {
        FilterRegistrationBean<Filter> page = new FilterRegistrationBean<>((request, response, chain) -> {
            HttpSession session = ((HttpServletRequest) request).getSession();
            Integer visits = (Integer) session.getAttribute(VISITS);
            session.setAttribute(VISITS, visits == null ? 1 : visits + 1);
            response.setContentType("text/plain");
            response.getWriter().print("session=" + session.getId() + "\nvisits=" + session.getAttribute(VISITS)
                    + "\nattributes=" + new TreeSet<>(Collections.list(session.getAttributeNames())) + "\n");
        });
        page.addUrlPatterns("/container-session");
        page.setOrder(Ordered.HIGHEST_PRECEDENCE);
        return page;
    }
}

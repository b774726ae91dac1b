package io.hbasesessions.sample.session;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.List;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;
import org.springframework.session.web.http.CookieHttpSessionIdResolver;
import org.springframework.session.web.http.DefaultCookieSerializer;
import org.springframework.session.web.http.HeaderHttpSessionIdResolver;
import org.springframework.session.web.http.HttpSessionIdResolver;

/**
 * Browsers carry the session in a cookie, REST clients in the {@code X-Auth-Token} header (Spring Session's two id
 * resolvers): a request that sends the header is a REST client's, and its answer names a new or changed id in the
 * header, never in a cookie. Defining a resolver replaces Boot's cookie serializer, so the cookie's name is read
 * here from {@code server.servlet.session.cookie.name}, as Boot would.
 */
@Component
public class CookieOrTokenSessionIds implements HttpSessionIdResolver {

    private static final String TOKEN_HEADER = "X-Auth-Token";

    private final HttpSessionIdResolver token = HeaderHttpSessionIdResolver.xAuthToken();
    private final CookieHttpSessionIdResolver cookie = new CookieHttpSessionIdResolver();

    public CookieOrTokenSessionIds(@Value("${server.servlet.session.cookie.name:SESSION}") String cookieName) {
        DefaultCookieSerializer cookies = new DefaultCookieSerializer();
        cookies.setCookieName(cookieName);
        cookie.setCookieSerializer(cookies);
    }

    @Override
    public List<String> resolveSessionIds(HttpServletRequest request) {
        return of(request).resolveSessionIds(request);
    }

    @Override
    public void setSessionId(HttpServletRequest request, HttpServletResponse response, String sessionId) {
        of(request).setSessionId(request, response, sessionId);
    }

    @Override
    public void expireSession(HttpServletRequest request, HttpServletResponse response) {
        of(request).expireSession(request, response);
    }

    private HttpSessionIdResolver of(HttpServletRequest request) {
        return request.getHeader(TOKEN_HEADER) != null ? token : cookie;
    }
}

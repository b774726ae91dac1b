package io.hbasesessions.shiro;

import jakarta.servlet.ServletRequest;
import java.io.Serializable;
import org.apache.shiro.session.Session;
import org.apache.shiro.session.UnknownSessionException;
import org.apache.shiro.session.mgt.SessionKey;
import org.apache.shiro.web.session.mgt.DefaultWebSessionManager;
import org.apache.shiro.web.util.WebUtils;

/**
 * Shiro's native web session manager, reading a request's session from the DAO once. Shiro asks its DAO
 * again on every call of a {@code Session} (resolving the subject, its principals, its authenticated flag, the
 * touch, every attribute, saving the subject's state): with a shared store each is a network read. This keeps
 * the session read first in a request attribute and hands the same object to the later calls of that request,
 * as Shiro's {@code MemorySessionDAO} hands out its one object. Every change is still written through the DAO
 * when Shiro makes it, and the copy ends with the request, so another node's changes are seen by the next request.
 */
public class RequestCachingWebSessionManager extends DefaultWebSessionManager {

    private static final String CACHED_SESSION = RequestCachingWebSessionManager.class.getName() + ".session";

    @Override
    protected Session retrieveSession(SessionKey key) throws UnknownSessionException {
        ServletRequest request = WebUtils.isWeb(key) ? WebUtils.getRequest(key) : null;
        if (request == null) {
            return super.retrieveSession(key);
        }
        Serializable id = getSessionId(key);
        if (request.getAttribute(CACHED_SESSION) instanceof Session cached && id != null && id.equals(cached.getId())) {
            return cached;
        }
        Session read = super.retrieveSession(key);
        request.setAttribute(CACHED_SESSION, read);
        return read;
    }
}

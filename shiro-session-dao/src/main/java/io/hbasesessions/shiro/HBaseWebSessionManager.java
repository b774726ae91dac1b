package io.hbasesessions.shiro;

import io.hbasesessions.store.Setting;
import io.hbasesessions.store.StoreConfigurationException;
import io.hbasesessions.store.StoreSettings;
import jakarta.servlet.ServletRequest;
import java.io.Serializable;
import java.lang.System.Logger.Level;
import org.apache.shiro.lang.util.Initializable;
import org.apache.shiro.session.InvalidSessionException;
import org.apache.shiro.session.Session;
import org.apache.shiro.session.UnknownSessionException;
import org.apache.shiro.session.mgt.DefaultSessionKey;
import org.apache.shiro.session.mgt.SessionKey;
import org.apache.shiro.web.session.mgt.DefaultWebSessionManager;
import org.apache.shiro.web.util.WebUtils;

/**
 * Shiro's native web session manager, made for a shared store in two ways.
 *
 * <p>It reads a request's session from the DAO once. Shiro asks its DAO again on every call of a {@code Session}
 * (resolving the subject, its principals, its authenticated flag, the touch, every attribute, saving the
 * subject's state): with a shared store each is a network read. This keeps the session read first in a request
 * attribute and hands the same object to the later calls of that request, as Shiro's {@code MemorySessionDAO}
 * hands out its one object. Every change is still written through the DAO when Shiro makes it, and the copy ends
 * with the request, so another node's changes are seen by the next request.
 *
 * <p>With the DAO's {@code expiryEvents}, Shiro's session validation is the sweep of the store's expiry index
 * ({@link HBaseSessionDAO#sweepExpired()}) instead of a check of {@code getActiveSessions}, so
 * {@code SessionListener.onExpiration} fires once per expired session fleet-wide. The sweep runs here only:
 * an application calling {@code getActiveSessions} (always empty) ends nothing and loses no event. Shiro starts its validation at the first session a node serves and runs it hourly; this
 * starts it with the application, on a node that never serves a session too, and at least every
 * {@code expiryEventDelaySeconds / 2}.
 *
 * <p>Its session cookie is {@value #DEFAULT_COOKIE_NAME}, not Shiro's default {@code JSESSIONID}, which is the
 * servlet container's: a container that makes a session of its own for the same path (a JSP, a container login,
 * a server-wide session store) would replace Shiro's cookie with its own and log the user out. A configuration
 * naming {@code JSESSIONID} does not start.
 */
public class HBaseWebSessionManager extends DefaultWebSessionManager implements Initializable {

    /** The session cookie's name unless {@code sessionManager.sessionIdCookie.name} says otherwise. */
    public static final String DEFAULT_COOKIE_NAME = "SHIROSESSIONID";
    private static final String CONTAINER_COOKIE_NAME = "JSESSIONID";
    private static final System.Logger LOG = System.getLogger(HBaseWebSessionManager.class.getName());
    private static final String CACHED_SESSION = HBaseWebSessionManager.class.getName() + ".session";

    public HBaseWebSessionManager() {
        getSessionIdCookie().setName(DEFAULT_COOKIE_NAME);
    }

    /**
     * Called by Shiro once the manager's properties are set; the rest waits for the DAO's own {@code init()}.
     *
     * @throws StoreConfigurationException if the session cookie is the servlet container's
     */
    @Override
    public void init() {
        if (isSessionIdCookieEnabled() && CONTAINER_COOKIE_NAME.equalsIgnoreCase(getSessionIdCookie().getName())) {
            throw new StoreConfigurationException("sessionManager.sessionIdCookie.name = " + CONTAINER_COOKIE_NAME
                    + " is the servlet container's session cookie: a session the container makes for the same path "
                    + "replaces it and logs the user out. Leave the name out (the default is " + DEFAULT_COOKIE_NAME
                    + ") or choose another one");
        }
        if (getSessionDAO() instanceof HBaseSessionDAO dao) {
            dao.whenOpen(this::sweepOnValidation);
        }
    }

    /**
     * With {@code expiryEvents}: validation from now on, at least every sweep period.
     *
     * @throws StoreConfigurationException if the validation scheduler, which sweeps, is off
     */
    private void sweepOnValidation(StoreSettings settings) {
        if (!settings.get(Setting.EXPIRY_EVENTS)) {
            return;
        }
        if (!isSessionValidationSchedulerEnabled()) {
            throw new StoreConfigurationException("expiryEvents=true needs Shiro's session validation: it sweeps the "
                    + "expiry index. Set sessionManager.sessionValidationSchedulerEnabled = true, or expiryEvents=false");
        }
        long sweepPeriodMillis = settings.expirySweepPeriodSeconds() * 1_000L;
        if (getSessionValidationInterval() > sweepPeriodMillis) {
            LOG.log(Level.INFO, "Session validation runs every {0} ms (expiryEventDelaySeconds / 2) instead of {1} ms, "
                    + "so that expiry events are on time", sweepPeriodMillis, getSessionValidationInterval());
            setSessionValidationInterval(sweepPeriodMillis);
        }
        enableSessionValidation();
    }

    /**
     * Shiro's validation run: with an {@link HBaseSessionDAO}, the sessions its sweep ended go through Shiro's own
     * {@code validate}, which finds them expired and fires {@code onExpiration}; there is nothing else to check.
     */
    @Override
    public void validateSessions() {
        if (!(getSessionDAO() instanceof HBaseSessionDAO dao)) {
            super.validateSessions();
            return;
        }
        for (Session ended : dao.sweepExpired()) {
            try {
                validate(ended, new DefaultSessionKey(ended.getId()));
            } catch (InvalidSessionException expired) {
                // What validate reports once it has fired the session's events.
            }
        }
    }

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

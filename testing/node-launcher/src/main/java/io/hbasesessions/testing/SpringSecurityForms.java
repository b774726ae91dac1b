package io.hbasesessions.testing;

import java.net.URI;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Spring Security's form login as a browser goes through it, for the Spring samples' tests, servlet and WebFlux
 * alike: the generated login page with its CSRF token from one node, the login posted to another. The samples'
 * users' password is the user name followed by {@code -password}.
 */
public final class SpringSecurityForms {

    private static final Pattern CSRF_INPUT = Pattern.compile("name=\"_csrf\"[^>]*value=\"([^\"]+)\"");

    private SpringSecurityForms() {
    }

    /** Gets {@code formNode}'s login page and posts its form, filled in for {@code user}, to {@code postNode}. */
    public static void logIn(Browser browser, SampleNode formNode, SampleNode postNode, String user) {
        logIn(browser, formNode.url("/login"), postNode.url("/login"), user);
    }

    /** Gets {@code loginPage} and posts its form, filled in for {@code user}, to {@code loginPost}; fails if refused. */
    public static void logIn(Browser browser, URI loginPage, URI loginPost, String user) {
        Browser.Answer page = browser.get(loginPage).expect(200);
        Matcher csrf = CSRF_INPUT.matcher(page.body());
        if (!csrf.find()) {
            throw new AssertionError("No CSRF token on the login page: " + page.body());
        }
        Browser.Answer answer = browser.post(loginPost,
                Map.of("username", user, "password", user + "-password", "_csrf", csrf.group(1)));
        if (answer.status() != 302 || String.valueOf(answer.location()).contains("error")) {
            throw new AssertionError(user + " was refused: " + answer.status() + " to " + answer.location());
        }
    }

    /** {@code node}'s {@code /account} sends the browser to the login page. */
    public static void assertLoggedOut(Browser browser, SampleNode node) {
        assertLoggedOut(browser, node.url("/account"));
    }

    /** The protected page {@code account} sends the browser to the login page: it is logged in nowhere there. */
    public static void assertLoggedOut(Browser browser, URI account) {
        Browser.Answer answer = browser.get(account);
        if (answer.status() != 302 || !String.valueOf(answer.location()).endsWith("/login")) {
            throw new AssertionError(account + " answered " + answer.status() + " (" + answer.location()
                    + ") to a browser that should be logged out: " + answer.body());
        }
    }
}

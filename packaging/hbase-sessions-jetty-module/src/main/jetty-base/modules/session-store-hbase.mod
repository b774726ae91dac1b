# hbase-sessions: see README.md of jetty-session-datastore

[description]
Stores HTTP sessions in Apache HBase, shared by every node (and by Tomcat nodes with the same keyScope).
Is the session cache too (none: every request reads its own copy), so it replaces
session-cache-hash and session-cache-null.

[tags]
session

[provides]
session-store
session-cache

[depends]
sessions

[lib]
lib/hbase-sessions/*.jar

[xml]
etc/sessions/hbase/session-store.xml

[ini]
## The jars of lib/hbase-sessions/ are the server's: no web application sees the store, Kryo or the HBase client
## with the libraries it carries relocated (a WAR bringing its own copies still loads those). Only
## io.hbasesessions.api (SessionRevoker, which the store hands to each application) stays visible.
jetty.webapp.addHiddenClasses+=,${jetty.base.uri}/lib/hbase-sessions/,-io.hbasesessions.api.

[ini-template]
## @SETTING_INI_TEMPLATE@ Every store setting, commented out with its meaning and default, generated at build time.

## Jetty's own session settings. This module is the session cache too (none: every request reads its own
## copy, which the store saves before the response is committed), so the session-cache-hash settings
## (jetty.session.evictionPolicy, jetty.session.flushOnResponseCommit, ...) do not apply.
## The grace period only paces Jetty's expiry sweep (HBase's TTL does the work; with expiryEvents the
## store shortens it, and the house keeper's interval, to half of expiryEventDelaySeconds when longer).
# jetty.session.gracePeriod.seconds=3600

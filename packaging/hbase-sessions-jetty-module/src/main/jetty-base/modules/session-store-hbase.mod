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
## An hbase-site.xml to read the client settings from. (file path)
# jetty.session.hbase.hbaseSite=

## ZooKeeper of the HBase cluster. This or hbaseSite is required. (host[:port],...)
# jetty.session.hbase.zookeeperQuorum=

## The sessions table. ([namespace:]name)
# jetty.session.hbase.table=sessions

## The user index for "log out everywhere". ([namespace:]name)
# jetty.session.hbase.indexTable=user_sessions

## Applications with the same keyScope share sessions, on Tomcat and Jetty alike. Default: the context path (/shop), plus @host for a context of a virtual host other than the container's default. (text)
# jetty.session.hbase.keyScope=

## Pre-split regions of a table the store creates. (count, 1-256)
# jetty.session.hbase.regions=16

## Block compression of the tables' family, set when the store creates a table and checked at start like the rest of the schema. Every codec but none and gz needs the master and region servers to load it (hbase.io.compress.<name>.codec; see docs/operations.md, Sizing). (none, gz, snappy, lz4, zstd)
# jetty.session.hbase.compression=none

## No session lives longer than this after its creation, however active (checked on every read; also the tables' TTL). (seconds, >= 60)
# jetty.session.hbase.maxLifetimeSeconds=604800

## An unchanged session is rewritten (to slide its expiry) at most this often; never more than a tenth of its idle timeout. (seconds)
# jetty.session.hbase.touchIntervalSeconds=60

## How concurrent requests on one session are kept from losing updates (see Concurrency). (optimistic, pessimistic, none)
# jetty.session.hbase.lockingMode=optimistic

## With lockingMode=pessimistic: a lease not given back (its node died) is free again after this long. (seconds, 1-3600)
# jetty.session.hbase.leaseTimeoutSeconds=30

## WAL durability of attribute writes. SKIP_WAL is refused. (USE_DEFAULT, ASYNC_WAL, SYNC_WAL, FSYNC_WAL)
# jetty.session.hbase.writeDurability=SYNC_WAL

## WAL durability of touches (access-time-only writes). (as above)
# jetty.session.hbase.touchDurability=ASYNC_WAL

## Bound on every HBase operation, retries included. (milliseconds, 100-600000)
# jetty.session.hbase.operationTimeoutMillis=5000

## What a request gets when HBase is unavailable: HTTP 503, or (for a request whose session cannot be read) a fresh session that is never stored. A save that fails always answers 503. (error, new_session)
# jetty.session.hbase.failMode=error

## How attribute values are serialized. Both are always readable. (kryo, java)
# jetty.session.hbase.serializer=kryo

## Only attribute values whose class name matches it wholly are stored and read back; a class inside a value must match it too, or be one of the JDK's value classes (see docs/security.md). Default: none (on Tomcat: the Manager's sessionAttributeValueClassNameFilter). (regular expression)
# jetty.session.hbase.attributeClassFilter=

## Classes attribute values may be made of besides the web application's own and the JDK's value and collection types: classes of a library on the server's class path, or other JDK classes. Each must still be Serializable; the classes hbase-sessions ships and the deny list are refused whatever this says (see docs/security.md). (class and package names (com.shop.Money, com.shop.model.), comma-separated)
# jetty.session.hbase.allowedAttributeClasses=

## Largest serialized session a save accepts; a larger one fails that request (HTTP 500) and leaves the stored session as it was. (bytes, 1024-8388608)
# jetty.session.hbase.maxSessionBytes=1048576

## Create missing tables at start; with false a missing table stops the start with the create command to run. Existing tables are checked against the schema either way. (true, false)
# jetty.session.hbase.createTable=true

## For applications that log users in themselves: the session attribute naming the user to index for "log out everywhere" (a String, a java.security.Principal, or Spring Security's SecurityContext, e.g. SPRING_SECURITY_CONTEXT, or Apache Shiro's PrincipalCollection, by its primary principal). Default: the container's login (the Shiro DAO: Shiro's principals). (attribute name)
# jetty.session.hbase.principalAttribute=

## Authenticates every state cell with the keys of stateKeyFile, checked before anything in it is decoded (hmac: HMAC-SHA256; encrypt: AES-GCM, also unreadable in HBase). A cell that fails is treated as absent and counted as forgedStates. Turning it on ends the sessions stored without it (see docs/security.md). (none, hmac, encrypt)
# jetty.session.hbase.stateProtection=none

## Keys for stateProtection, one per line, each the base64 of at least 32 random bytes (openssl rand -base64 32): the first protects new writes, every one is accepted on read, so keys rotate without logging anyone out. (file path)
# jetty.session.hbase.stateKeyFile=

## REGION_REPLICATION of the sessions table the store creates (an existing table's differing count is logged, and refused only for timelineReads without a secondary): replicas beyond the first are read-only copies on other region servers for timelineReads. They follow the primary only where the region servers run region replica replication (see Region replicas and timeline reads). (count, 1-3)
# jetty.session.hbase.regionReplicas=1

## A load the primary replica does not answer within timelineReadAfterMillis may be answered by a secondary, possibly stale; writes, and every read that decides one, still need the primary. Needs regionReplicas >= 2. (true, false)
# jetty.session.hbase.timelineReads=false

## With timelineReads: how long a load waits for the primary before asking the secondaries too (the client's hbase.client.primaryCallTimeout.get). Below operationTimeoutMillis. (milliseconds, 1-60000)
# jetty.session.hbase.timelineReadAfterMillis=50

## The Gets of concurrent requests bound for one region server, and their writes that wait for no WAL sync (touches), travel together in one multi-action while an earlier one is in flight (a call to an idle server goes at once); false: each on its own. (true, false)
# jetty.session.hbase.coalesceCalls=true

## Fire sessionDestroyed and valueUnbound when a session idles out or reaches maxLifetimeSeconds, once across the fleet, on a node serving its key scope (see Expiry and sessionDestroyed). Writes an entry in expiryTable when a write moves a session's expiry into another time bucket; false: nothing is written or swept. (true, false)
# jetty.session.hbase.expiryEvents=false

## With expiryEvents: the events of a session fire within about this long after it expires (half of it is the width of a time bucket, half the sweep period). (seconds, 2-3600)
# jetty.session.hbase.expiryEventDelaySeconds=60

## With expiryEvents: the expiry index, one row per time bucket, key scope and salt. ([namespace:]name)
# jetty.session.hbase.expiryTable=session_expiry

## Jetty's own session settings. This module is the session cache too (none: every request reads its own
## copy, which the store saves before the response is committed), so the session-cache-hash settings
## (jetty.session.evictionPolicy, jetty.session.flushOnResponseCommit, ...) do not apply.
## The grace period only paces Jetty's expiry sweep (HBase's TTL does the work; with expiryEvents the
## store shortens it, and the house keeper's interval, to half of expiryEventDelaySeconds when longer).
# jetty.session.gracePeriod.seconds=3600

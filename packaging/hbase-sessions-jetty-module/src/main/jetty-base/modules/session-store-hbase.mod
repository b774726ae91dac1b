# hbase-sessions: see README.md of jetty-session-datastore

[description]
Stores HTTP sessions in Apache HBase, shared by every node (and by Tomcat nodes with the same keyScope).
Non-sticky use needs a session cache that does not keep sessions between requests:
enable session-cache-hash (evictionPolicy 0 is set below) or session-cache-null.

[tags]
session

[provides]
session-store

[depend]
sessions

[lib]
lib/hbase-sessions/*.jar

[xml]
etc/sessions/hbase/session-store.xml

[ini]
## Evict on request exit: another node may change the session before this one sees it again.
jetty.session.evictionPolicy?=0
## Store before the response is sent, so the client's next request (on any node) sees the change.
jetty.session.flushOnResponseCommit?=true

[ini-template]
## HBase connection: a ZooKeeper quorum (host[:port],...) and/or an hbase-site.xml path.
# jetty.session.hbase.zookeeperQuorum=127.0.0.1:2181
# jetty.session.hbase.hbaseSite=/etc/hbase/conf/hbase-site.xml

## Tables (optionally namespace:name), created at start when missing and createTable=true.
# jetty.session.hbase.table=sessions
# jetty.session.hbase.indexTable=user_sessions
# jetty.session.hbase.createTable=true
# jetty.session.hbase.regions=16

## Contexts with the same keyScope share sessions, on Jetty and Tomcat alike.
## Default: the context path, plus @virtualHost when the context has virtual hosts.
# jetty.session.hbase.keyScope=/shop

## Expiry and writes. No session outlives maxLifetimeSeconds (the table TTL); an unchanged session is
## rewritten (to slide its expiry) at most once per touchIntervalSeconds.
# jetty.session.hbase.maxLifetimeSeconds=604800
# jetty.session.hbase.touchIntervalSeconds=60

## Concurrent requests on one session: optimistic | pessimistic | none.
# jetty.session.hbase.lockingMode=optimistic

## WAL durability: SYNC_WAL | FSYNC_WAL | ASYNC_WAL | USE_DEFAULT (SKIP_WAL is refused).
# jetty.session.hbase.writeDurability=SYNC_WAL
# jetty.session.hbase.touchDurability=ASYNC_WAL

## HBase down: every call gives up after operationTimeoutMillis; then failMode decides:
## error (503 for requests that need a new session) | new_session (a node-local, unstored session).
# jetty.session.hbase.operationTimeoutMillis=5000
# jetty.session.hbase.failMode=error

## Attribute serialization: kryo | java. Larger sessions are refused.
# jetty.session.hbase.serializer=kryo
# jetty.session.hbase.maxSessionBytes=1048576

## Jetty's own store settings. The grace period only paces Jetty's expiry sweep (HBase TTL does the
## work); the save period has no effect: the store itself skips unchanged writes.
# jetty.session.gracePeriod.seconds=3600

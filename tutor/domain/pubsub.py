"""Publish/subscribe: small JSON messages on named channels, for pages that update without a
reload (the live session, :mod:`tutor.domain.live`).

Two implementations behind one interface (:class:`PubSub`):

* :class:`MemoryPubSub` — within one process (threads): what a single ``tutor serve`` or a test
  needs, and what is used when no Redis is configured. Workers of a multi-process server do not
  see one another's messages.
* :class:`RedisPubSub` — Redis ``PUBLISH``/``SUBSCRIBE`` (redis-py): every worker on every host
  connected to the same Redis sees every message, so a teacher's click served by one worker
  reaches the learners whose event streams another worker serves.

:func:`from_url` picks one: a ``redis://`` or ``rediss://`` URL (``TUTOR_REDIS_URL``, the Redis of
the rate limits, :mod:`tutor.web.limits`) gives Redis, an empty one memory.

A message is a JSON object (a ``dict`` of JSON values); a subscriber gets the messages published
on its channel *after* :meth:`PubSub.subscribe` returned, in order, each once. Delivery is at
most once: a message published while Redis is unreachable is lost (``publish`` logs it and
returns False), so a reader that must not miss a change also re-reads the state it follows
from the database now and then (the live session's event stream does).
"""

from __future__ import annotations

import json
import logging
import queue
import threading
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, suppress
from typing import Any, Protocol

__all__ = ["MemoryPubSub", "PubSub", "RedisPubSub", "Subscription", "from_url"]

log = logging.getLogger(__name__)

Message = dict[str, Any]


class Subscription(Protocol):
    """The messages of one channel from the moment of subscribing."""

    def get(self, timeout: float) -> Message | None:
        """The next message, waiting at most ``timeout`` seconds; None if none came."""
        ...


class PubSub(Protocol):
    """Publish a JSON object on a channel; subscribe to a channel's messages."""

    def publish(self, channel: str, message: Message) -> bool:
        """Send ``message`` to the channel's subscribers; False if it could not be sent."""
        ...

    def subscribe(self, channel: str) -> AbstractContextManager[Subscription]:
        """A context manager giving a :class:`Subscription` to ``channel`` (subscribed when it
        is entered, unsubscribed when it is left)."""
        ...


class _QueueSubscription:
    def __init__(self) -> None:
        self.queue: queue.Queue[Message] = queue.Queue()

    def get(self, timeout: float) -> Message | None:
        try:
            return self.queue.get(timeout=max(timeout, 0.0))
        except queue.Empty:
            return None


class MemoryPubSub:
    """Publish/subscribe within one process (thread-safe): each subscriber has a queue."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subs: dict[str, set[_QueueSubscription]] = {}

    def publish(self, channel: str, message: Message) -> bool:
        data = json.loads(json.dumps(message))  # as through Redis: a copy, JSON values only
        with self._lock:
            subs = list(self._subs.get(channel, ()))
        for sub in subs:
            sub.queue.put(data)
        return True

    @contextmanager
    def subscribe(self, channel: str) -> Iterator[Subscription]:
        sub = _QueueSubscription()
        with self._lock:
            self._subs.setdefault(channel, set()).add(sub)
        try:
            yield sub
        finally:
            with self._lock:
                subs = self._subs.get(channel)
                if subs is not None:
                    subs.discard(sub)
                    if not subs:
                        del self._subs[channel]

    def subscribers(self, channel: str) -> int:
        """How many subscriptions ``channel`` has now (for tests and diagnostics)."""
        with self._lock:
            return len(self._subs.get(channel, ()))


class _RedisSubscription:
    def __init__(self, pubsub: Any) -> None:
        self.pubsub = pubsub

    def get(self, timeout: float) -> Message | None:
        import time

        import redis

        deadline = time.monotonic() + max(timeout, 0.0)
        while True:
            left = deadline - time.monotonic()
            try:
                m = self.pubsub.get_message(ignore_subscribe_messages=True, timeout=max(left, 0.0))
            except (redis.RedisError, RuntimeError) as e:  # Redis away (or never subscribed): nothing this time;
                # the caller re-reads its state
                log.warning("pubsub: Redis subscription failed: %s", e)
                time.sleep(min(max(left, 0.0), 1.0))
                return None
            if m is not None and m.get("type") == "message":
                try:
                    data = json.loads(m["data"])
                except (TypeError, ValueError):
                    data = None
                if isinstance(data, dict):
                    return data
            if left <= 0:
                return None


class RedisPubSub:
    """Publish/subscribe through Redis (``PUBLISH`` and ``SUBSCRIBE``; channels as given, under
    ``prefix``). ``url``: a ``redis://`` or ``rediss://`` URL. Connections time out after 2 s, so
    a Redis that stops answering never holds a request for long."""

    def __init__(self, url: str, prefix: str = "tutor:") -> None:
        import redis

        self.prefix = prefix
        self.client = redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=None,
                                           health_check_interval=30)
        self._publisher = redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2)

    def publish(self, channel: str, message: Message) -> bool:
        import redis

        try:
            self._publisher.publish(self.prefix + channel, json.dumps(message))
        except redis.RedisError as e:
            log.warning("pubsub: could not publish on %s: %s", channel, e)
            return False
        return True

    @contextmanager
    def subscribe(self, channel: str) -> Iterator[Subscription]:
        import redis

        p = self.client.pubsub()  # type: ignore[no-untyped-call]
        try:
            try:
                p.subscribe(self.prefix + channel)
                # wait for Redis to confirm: a message published after this returns is delivered
                for _ in range(20):
                    m = p.get_message(timeout=0.1)
                    if m is not None and m.get("type") == "subscribe":
                        break
            except redis.RedisError as e:
                log.warning("pubsub: could not subscribe to %s: %s", channel, e)
            yield _RedisSubscription(p)
        finally:
            with suppress(redis.RedisError):
                p.close()


def from_url(url: str | None) -> MemoryPubSub | RedisPubSub:
    """A :class:`RedisPubSub` for a ``redis://`` / ``rediss://`` URL, else a :class:`MemoryPubSub`."""
    url = (url or "").strip()
    if url.startswith(("redis://", "rediss://", "unix://")):
        return RedisPubSub(url)
    return MemoryPubSub()

"""The scheduler's state and its transitions, without Redis or a reactor: requests
leased in batches, pushes and acknowledgements waiting for their round trip, one
exchange at a time, completion."""
from __future__ import annotations

from scrapy import Request
from scrapy.settings import Settings

from skeleton.store.scheduler_state import MAX_OUTBOX, BoundedSet, Pace, SchedulerState


def test_pace_reads_the_settings() -> None:
    pace = Pace.from_settings(Settings({"CONCURRENT_REQUESTS": 8, "SKELETON_LEASE_TIMEOUT": 20,
                                        "SKELETON_ACK_BATCH": 0, "SKELETON_ACK_INTERVAL": -1}))
    assert (pace.batch, pace.beat_every, pace.ack_batch, pace.ack_every) == (8, 5.0, 1, 0.0)
    assert Pace.from_settings(Settings({"SKELETON_QUEUE_BATCH": 3, "CONCURRENT_REQUESTS": 8})).batch == 3


def test_leasing_in_batches_while_one_exchange_runs() -> None:
    state = SchedulerState(Pace(batch=4))
    assert state.handed() is None and state.to_lease() == 4
    state.started(4)
    assert state.to_lease() == 0  # the running exchange leases what lacks
    state.deferred(2)  # asked for while it runs: follows it
    assert state.sent([Request(f"http://h/{i}") for i in range(3)]) == 2
    assert state.leasing == 0 and state.again is None
    assert state.to_lease() == 0  # 3 of 4 waiting: more than half
    assert state.handed().url == "http://h/0" and state.to_lease() == 2  # half: 2 more
    state.started(2)
    assert state.to_lease() == 0
    assert state.sent([]) is None


def test_acknowledgements_wait_for_a_batch_or_their_interval() -> None:
    state = SchedulerState(Pace(ack_batch=3, ack_every=1.0))
    assert not state.acked("a", now=10.0) and not state.acked("b", now=10.5)
    assert not state.acking(wait=False) and state.acking(wait=True)
    assert not state.ticked(now=10.9) and state.ticked(now=11.0)  # the first waited 1 s
    assert state.sending(acking=True) == ([], ["a", "b"])
    assert not state.acks_due and state.acks_since is None
    assert not state.acked("c", 20.0) and not state.acked("d", 20.0) and state.acked("e", 20.0)
    outbox, acks = state.sending(acking=False)
    assert (outbox, acks, state.acks) == ([], [], ["c", "d", "e"])


def test_pushes_wait_remembered_and_an_outage_drops_what_waits() -> None:
    state = SchedulerState(Pace(seen_cache=2))
    request = Request("http://h/a")
    push = (request, "http://h/a", ("{}", "", ["set", "x"]))
    assert not state.queued(push) and "http://h/a" in state.seen and state.ticked(0.0)
    for _ in range(MAX_OUTBOX - 2):
        state.queued((request, None, ("{}", "", [""])))
    assert state.queued((request, None, ("{}", "", [""])))
    state.acked("lease", 0.0)
    state.outage()
    assert state.outbox == [] and state.acks == []
    state.closed()
    assert len(state.seen) == 0 and state.seen.size == 0


def test_the_crawl_must_look_complete_for_a_while() -> None:
    state = SchedulerState(Pace(idle_close=2.0))
    assert state.quiet_for(5.0) == 0.0 and state.quiet_for(6.0) == 1.0
    state.busy()
    assert state.quiet_for(9.0) == 0.0 and state.quiet_for(11.0) == 2.0
    state.inbox.append(Request("http://h/"))
    state.handed()  # a request handed out: the crawl was not complete
    assert state.quiet_for(12.0) == 0.0


def test_bounded_set_forgets_the_oldest() -> None:
    seen = BoundedSet(2)
    for item in "abca":
        seen.add(item)
    assert "a" in seen and "b" not in seen and len(seen) == 2
    off = BoundedSet(0)
    off.add("a")
    assert "a" not in off

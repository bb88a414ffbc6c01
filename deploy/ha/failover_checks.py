"""What deploy/ha/failover-test requires of a run besides losing no acknowledged answer: that
enough answers were acknowledged to mean something, that writes came back after the promotion
and through the restarted server, and that the stretch without writes around the primary's kill
stayed within a bound. Standard library only.

The defaults come from measured runs on the project's 2-core machine (deploy/ha/README.md has
the figures). A quiet run acknowledged 7,659 answers, a busy one 5,232 and one under two extra
busy loops and other builds (load average 14) 2,040, of which 1,539 were sent after the
promotion and 47 through the restarted server (257 in the busy run). The write gap was
14.1-17.0 s, of which Patroni's failover took 13.7-14.6 s: the dead leader's key lives for the
ttl of 15 s from its last renewal (every loop_wait of 2 s), then the synchronous standby takes
the lock on its next loop; HAProxy's check (every 1 s) then sends the servers to it. Each floor
is a quarter or less of the slowest run measured, and the bound about twice the longest gap,
so a slow CI machine passes and a run whose writes never came back does not.
"""
from __future__ import annotations

from dataclasses import dataclass

MIN_ACKS = 500                  # answers acknowledged in the whole run (2,040-7,659 measured)
MIN_AFTER_PROMOTION = 100       # acknowledged answers sent after the promotion was seen (1,539 or more)
MIN_VIA_RESTARTED = 10          # acknowledged answers sent through the restarted server once it is back (47 or more)
MAX_WRITE_GAP = 30.0            # seconds (14.1-17.0 measured): ttl 15 + loop_wait 2 + HAProxy's check, with room


@dataclass
class Limits:
    min_acks: int = MIN_ACKS
    min_after_promotion: int = MIN_AFTER_PROMOTION
    min_via_restarted: int = MIN_VIA_RESTARTED
    max_write_gap: float = MAX_WRITE_GAP


@dataclass
class Timeline:
    """When things happened, in seconds from the participants' start (None: it did not)."""
    primary_killed_at: float | None = None
    killed_member: str | None = None
    promoted_at: float | None = None        # when another member was first seen as a running leader
    promoted_member: str | None = None
    restarted_server: str | None = None
    server_back_at: float | None = None     # when the restarted server answered /health again
    stopped_at: float | None = None         # when the participants were told to stop


@dataclass
class Gap:
    start: float
    end: float
    open: bool                  # no answer was acknowledged after it, up to the participants' stop

    @property
    def seconds(self) -> float:
        return self.end - self.start

    def describe(self) -> str:
        if self.open:
            return f"{self.seconds:.1f} s or more (t={self.start:.1f} s to the stop at t={self.end:.1f} s: no answer acknowledged after it)"
        return f"{self.seconds:.1f} s (t={self.start:.1f}–{self.end:.1f} s)"


def write_gap(ack_times: list[float], timeline: Timeline) -> Gap | None:
    """The longest stretch with no acknowledged answer that ends after the primary's kill and
    begins before the promotion was seen (before the stop, when none was seen). A write held
    through the failover ends the stretch when its 303 comes back; answers still committed by
    the old primary just after its kill begin it."""
    killed = timeline.primary_killed_at
    if killed is None or timeline.stopped_at is None:
        return None
    points = sorted(ack_times)
    begins_before = timeline.promoted_at if timeline.promoted_at is not None else timeline.stopped_at
    stretches = [Gap(a, b, False) for a, b in zip([0.0] + points, points)]
    stretches.append(Gap(points[-1] if points else 0.0, timeline.stopped_at, True))
    around = [g for g in stretches if g.end > killed and g.start < begins_before]
    return max(around, key=lambda g: g.seconds, default=None)


def requirements(acks: list, timeline: Timeline, limits: Limits) -> list[tuple[bool, str]]:
    """(met, what) for each requirement; `acks` have .sent, .at and .via (the server's name when
    sent to it directly, "nginx" otherwise)."""
    out = [(len(acks) >= limits.min_acks, f"at least {limits.min_acks} answers acknowledged: {len(acks)}")]

    t = timeline
    if t.promoted_at is None:
        killed = f"t={t.primary_killed_at:.1f} s" if t.primary_killed_at is not None else "no time: it was not killed"
        out.append((False, f"a standby promoted after the primary's kill: none seen ({t.killed_member} killed at {killed})"))
        out.append((False, f"at least {limits.min_after_promotion} answers acknowledged after the promotion: no promotion seen"))
    else:
        after = sum(a.sent >= t.promoted_at for a in acks)
        out.append((True, f"a standby promoted after the primary's kill: {t.promoted_member} seen as the leader at "
                          f"t={t.promoted_at:.1f} s, {t.promoted_at - t.primary_killed_at:.1f} s after {t.killed_member}'s kill"))
        out.append((after >= limits.min_after_promotion,
                    f"at least {limits.min_after_promotion} answers acknowledged that were sent after the promotion: {after}"))

    if t.server_back_at is None:
        out.append((False, f"at least {limits.min_via_restarted} answers acknowledged through the restarted "
                           f"{t.restarted_server}: it never answered /health again"))
    else:
        via = sum(a.via == t.restarted_server and a.sent >= t.server_back_at for a in acks)
        out.append((via >= limits.min_via_restarted,
                    f"at least {limits.min_via_restarted} answers acknowledged through the restarted {t.restarted_server} "
                    f"(back at t={t.server_back_at:.1f} s): {via}"))

    gap = write_gap([a.at for a in acks], t)
    if gap is None:
        out.append((False, "write gap around the primary's kill: the primary was not killed"))
    else:
        out.append((not gap.open and gap.seconds <= limits.max_write_gap,
                    f"write gap around the primary's kill at most {limits.max_write_gap:g} s: {gap.describe()}"))
    return out

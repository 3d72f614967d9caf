package io.zkgroups.rebalancer.group;

import io.zkgroups.registry.model.ConsumerId;
import org.slf4j.Logger;

import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;

/**
 * A member's one transition function: its {@link MemberPhase} and the {@link MemberState} its health shows, moved
 * together, each move checked against {@link MemberPhase#canMoveTo}, logged at DEBUG, and told to one hook. Safe on
 * any thread: the event loop moves through the attempt's phases, {@code start}, {@code close} and {@code handOver}
 * move it from application threads, and a compare-and-set decides races.
 * <p>
 * A move out of a terminal phase that is not allowed is ignored ({@code close()} may end the member while the event
 * loop is in the middle of an attempt: the attempt then stops); any other illegal move is a bug and throws.
 */
final class PhaseMachine {

    /** Hears of every move, on the thread that made it, after it was made. */
    interface Hook {
        void moved(MemberPhase from, MemberPhase to);
    }


    private final Logger log;
    private final ConsumerId me;
    private final Hook hook;
    private final AtomicReference<Position> position =
            new AtomicReference<>(new Position(MemberPhase.LATENT, MemberState.LATENT));

    PhaseMachine(MemberContext member, Hook hook) {
        this.log = member.log();
        this.me = member.me();
        this.hook = hook;
    }

    MemberPhase phase() {
        return position.get().phase;
    }

    /** The state health shows now. */
    MemberState shown() {
        return position.get().shown;
    }

    /** Moves to {@code next}; returns whether the member is in it now (false: it ended meanwhile). */
    boolean moveTo(MemberPhase next) {
        move(current -> next);
        return phase() == next;
    }

    /**
     * Moves to the phase {@code choose} picks for the current one (null or the same: stays). Returns the phase it
     * left, or null if it did not move.
     *
     * @throws IllegalStateException if the move is not allowed from a phase that is not terminal
     */
    MemberPhase move(UnaryOperator<MemberPhase> choose) {
        while (true) {
            Position from = position.get();
            MemberPhase next = choose.apply(from.phase);
            if (next == null || next == from.phase) {
                return null;
            }
            if (!from.phase.canMoveTo(next)) {
                if (from.phase.isTerminal()) {
                    log.debug("phase {} -> {} ignored: {} is final", from.phase, next, from.phase);
                    return null;
                }
                throw new IllegalStateException("member " + me + " cannot move from phase " + from.phase + " to " + next);
            }
            Position to = new Position(next, next.shownAfter(from.shown));
            if (position.compareAndSet(from, to)) {
                log.debug("phase {} -> {} (state {})", from.phase, next, to.shown);
                hook.moved(from.phase, next);
                return from.phase;
            }
        }
    }

    private static final class Position {
        final MemberPhase phase;
        final MemberState shown;

        Position(MemberPhase phase, MemberState shown) {
            this.phase = phase;
            this.shown = shown;
        }
    }
}

package cp.model;

import java.time.Duration;

/** Defaults a client of the contract starts from; each can be overridden where the client is built. */
public final class ClientDefaults {
  /** The task queue sessions run on unless the deployment names another ({@code CP_TASK_QUEUE}). */
  public static final String TASK_QUEUE = "control-plane";

  /**
   * A client waiting for a turn gives up after the service has been unreachable this long (the
   * turn may still finish on the service; the ledgers will show it). Long enough to ride out a
   * server restart on a real cluster, short enough that a script does not hang.
   */
  public static final Duration SERVICE_LOST_AFTER = Duration.ofSeconds(30);

  /**
   * How often a client following a running turn asks it which step it is in (the per-turn
   * {@code progress} Query): often enough that a display keeps up with a step of a few hundred
   * milliseconds, seldom enough to cost the service a handful of Queries a second.
   */
  public static final Duration PROGRESS_POLL_INTERVAL = Duration.ofMillis(150);
  /**
   * How often a client following a live turn reads its events (issue 24, the turn's Query
   * {@code events}): a delta reaches the client within this after the turn has it, well within
   * the 150 ms time-to-first-token target, for ~20 Queries a second while the turn runs.
   */
  public static final Duration EVENT_POLL_INTERVAL = Duration.ofMillis(50);

  /** Most sessions one listing returns: a screenful or a page, not the whole history of a busy namespace. */
  public static final int LIST_LIMIT = 200;

  /**
   * A decision ({@code approve}) not taken by any worker this long is reported as waiting: it stays
   * pending and applies when a worker runs.
   */
  public static final Duration APPROVE_NOTICE_AFTER = Duration.ofSeconds(5);

  private ClientDefaults() {}
}

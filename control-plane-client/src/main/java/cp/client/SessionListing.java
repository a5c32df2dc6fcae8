package cp.client;

import java.time.Instant;

/**
 * One session as Temporal's visibility store lists it ({@link ControlPlaneClient#list}).
 *
 * @param sessionId the session id (= its workflow id)
 * @param agentClass the {@code CpAgentClass} search attribute, or null when the session did not set it
 * @param status the workflow's status: {@code RUNNING}, {@code COMPLETED} (ended), {@code FAILED}
 *     (e.g. a refused start), {@code TERMINATED}, {@code CONTINUED_AS_NEW}, ...
 * @param turns the {@code CpTurn} search attribute (turns completed), or null when not set
 * @param startedAt when the listed run started (a session continues as new: its latest run)
 * @param closedAt when it closed, or null while it runs
 */
public record SessionListing(String sessionId, String agentClass, String status, Long turns, Instant startedAt,
    Instant closedAt) {}

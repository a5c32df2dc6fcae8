package cp.agents;

import java.util.List;

/**
 * What a defined agent gets for what its definition leaves out; each value says why.
 */
public final class DefinitionDefaults {
  /** Tokens a session may spend: between RESIDENT's 60 000 and ADMIN's 200 000, for an agent that uses tools. */
  public static final long SESSION_TOKENS = 100_000;
  /** Tokens one work order may spend: ADMIN's, room for a few tool rounds with results. */
  public static final long WORK_ORDER_TOKENS = 32_000;
  /** User turns per session: RESIDENT's. */
  public static final int TURN_LIMIT = 20;
  /** LLM rounds of one work order's tool loop: ADMIN's, an agent with tools needs several. */
  public static final int WORK_ORDER_ROUNDS = 5;
  /** A session's lifetime: one hour, as RESIDENT's. */
  public static final long SESSION_SECONDS = 3600;
  /** A session idle this long ends: half an hour, as the built-ins'. */
  public static final long IDLE_SECONDS = 1800;
  /** Synthesize retries after a rejection, as the built-ins'. */
  public static final int MAX_RETRIES = 2;
  /** Longest reply the quality gate accepts, as ADMIN's. */
  public static final int MAX_RESPONSE_CHARS = 8000;
  /** The framework id of defined agents in EXCHANGE records: the built-ins use 005 (ADMIN) and 006 (RESIDENT). */
  public static final String FRAMEWORK_ID = "FMWK-100";
  /** The tier defined agents are hosted in: the supervisor's, as RESIDENT. */
  public static final String TIER = "ho2";
  /** Their version in the catalog: a definition has none of its own. */
  public static final String VERSION = "1.0.0";
  /** Paths no defined agent may touch whatever its globs say: the built-ins' list of secrets and kernel files. */
  public static final List<String> FORBIDDEN = List.of("HOT/kernel/**", "HOT/scripts/**", "**/.env", "**/*.key",
      "**/*.pem", "**/secrets/**");

  private DefinitionDefaults() {}
}

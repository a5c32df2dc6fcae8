package cp.contracts;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * Whose ledger entries an agent's tools may read: {@code permissions.ledger_scope} of its config.
 *
 * <p>{@link #SESSION}, the default when the field is absent, limits the agent to the entries of
 * the session it is serving: another user's messages in the same agent class's ledger stay out
 * of its context. {@link #ALL} is for governance agents (ADMIN) that inspect the whole plane.
 */
public enum LedgerScope {
  /** Only entries whose {@code metadata.session_id} is the calling session's. */
  SESSION("session"),
  /** Every entry of the ledgers the agent's path permissions allow. */
  ALL("all");

  private final String wire;

  LedgerScope(String wire) {
    this.wire = wire;
  }

  /** The spelling in agent configs: {@code session} or {@code all}. */
  @JsonValue
  public String wireName() {
    return wire;
  }

  /**
   * @throws IllegalArgumentException naming the value and the accepted ones (the schema says the
   *     same at load, so a config with a bad value never gets this far)
   */
  @JsonCreator
  public static LedgerScope parse(String value) {
    for (LedgerScope s : values()) {
      if (s.wire.equals(value == null ? null : value.toLowerCase(Locale.ROOT))) {
        return s;
      }
    }
    throw new IllegalArgumentException("ledger_scope '" + value + "' is not known: use session or all");
  }
}

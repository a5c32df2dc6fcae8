package cp.ledger;

import java.util.Locale;

/** The memory tiers of the plane, each with its own ledger (DESIGN.md §1). */
public enum Tier {
  /** Governance: gateway EXCHANGE records, sessions, degradations. */
  HOT,
  /** North stars and salience anchors; read-only for HO2 and possibly empty. */
  HO3,
  /** Supervisor memory, one ledger per agent class. */
  HO2,
  /** Executor trace. */
  HO1;

  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static Tier parse(String value) {
    for (Tier t : values()) {
      if (t.name().equalsIgnoreCase(value)) {
        return t;
      }
    }
    throw new IllegalArgumentException("unknown tier '" + value + "' (known: hot, ho3, ho2, ho1)");
  }

  @Override
  public String toString() {
    return wireName();
  }
}

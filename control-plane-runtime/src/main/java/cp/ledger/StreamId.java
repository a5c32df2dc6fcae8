package cp.ledger;

import java.util.Locale;
import java.util.Objects;

/**
 * The name of one ledger stream: a tier, and for HO2 the agent class (agent classes share code but
 * not memory: each has its own HO2 stream and chain).
 */
public record StreamId(Tier tier, String agentClass) {
  public StreamId {
    Objects.requireNonNull(tier, "tier");
    agentClass = tier == Tier.HO2 ? PlaneLayout.checkAgentClass(agentClass) : null;
  }

  /** {@code hot}, {@code ho2/ADMIN}: the stream's key in a database and its label in messages. */
  public String label() {
    return agentClass == null ? tier.wireName() : tier.wireName() + "/" + agentClass;
  }

  /** The tier in upper case, with the agent class for HO2 ({@code HOT}, {@code HO2/ADMIN}). */
  public String tierName() {
    return agentClass == null ? tier.name() : tier.name() + "/" + agentClass;
  }

  /** The inverse of {@link #label()}. */
  public static StreamId parse(String label) {
    int slash = label.indexOf('/');
    Tier t = Tier.parse(slash < 0 ? label : label.substring(0, slash));
    return new StreamId(t, slash < 0 ? null : label.substring(slash + 1).toUpperCase(Locale.ROOT));
  }
}

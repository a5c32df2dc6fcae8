package cp.ledger;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The ledgers of one plane root: opens each tier's file on first use and closes them together.
 *
 * <p>Agent classes share code but not memory (the factory pattern): each class gets its own
 * HO2 ledger file.
 */
public final class Ledgers implements AutoCloseable {
  private final PlaneLayout layout;
  private final LedgerSettings settings;
  private final Map<Path, Ledger> open = new ConcurrentHashMap<>();

  public Ledgers(PlaneLayout layout, LedgerSettings settings) {
    this.layout = Objects.requireNonNull(layout, "layout");
    this.settings = Objects.requireNonNull(settings, "settings");
  }

  public static Ledgers open(Path root) {
    return new Ledgers(new PlaneLayout(root), LedgerSettings.defaults());
  }

  public PlaneLayout layout() {
    return layout;
  }

  public Ledger hot() {
    return get(Tier.HOT, null);
  }

  public Ledger ho1() {
    return get(Tier.HO1, null);
  }

  public Ledger ho3() {
    return get(Tier.HO3, null);
  }

  public Ledger ho2(String agentClass) {
    return get(Tier.HO2, agentClass);
  }

  /** The ledger of a tier (created on first use); HO2 needs the agent class. */
  public Ledger get(Tier tier, String agentClass) {
    Path p = layout.ledgerPath(tier, agentClass);
    return open.computeIfAbsent(p, k -> Ledger.open(k, settings.options(tier)));
  }

  /** The ledger if its file exists, without creating anything. */
  public java.util.Optional<Ledger> existing(Tier tier, String agentClass) {
    Path p = layout.ledgerPath(tier, agentClass);
    if (!open.containsKey(p) && !java.nio.file.Files.isRegularFile(p)) {
      return java.util.Optional.empty();
    }
    return java.util.Optional.of(get(tier, agentClass));
  }

  /** Every ledger file under the root, opened. */
  public List<Map.Entry<PlaneLayout.LedgerFile, Ledger>> all() {
    List<Map.Entry<PlaneLayout.LedgerFile, Ledger>> out = new ArrayList<>();
    for (PlaneLayout.LedgerFile f : layout.existingLedgers()) {
      out.add(Map.entry(f, get(f.tier(), f.agentClass())));
    }
    return out;
  }

  /**
   * The plane-wide check {@code verify} adds to each ledger's own: every ledger that is missing,
   * shorter, or rewritten compared with a head recorded for it in another ledger ({@link HeadCheckpoint}).
   */
  public List<HeadCheckpoint.Finding> crossCheck() {
    return HeadCheckpoint.crossCheck(layout);
  }

  @Override
  public void close() {
    for (Ledger l : open.values()) {
      l.close();
    }
    open.clear();
  }
}

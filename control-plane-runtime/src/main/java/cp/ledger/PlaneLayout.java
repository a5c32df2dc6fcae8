package cp.ledger;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Where each tier's ledger lives under the plane root ({@code CP_HOME}).
 *
 * <pre>
 *   HOT/ledger/governance.jsonl
 *   HO3/ledger/anchors.jsonl
 *   HO2/ledger/&lt;AGENT_CLASS&gt;/workorder.jsonl
 *   HO1/ledger/worker.jsonl
 * </pre>
 */
public final class PlaneLayout {
  /** Agent classes become directory names, so they are restricted to a safe alphabet. */
  public static final Pattern AGENT_CLASS = Pattern.compile("[A-Z][A-Z0-9_]{0,63}");

  private final Path root;

  public PlaneLayout(Path root) {
    this.root = Objects.requireNonNull(root, "root").toAbsolutePath().normalize();
  }

  public Path root() {
    return root;
  }

  /** The ledger file of a tier; {@code agentClass} is required for HO2 and ignored otherwise. */
  public Path ledgerPath(Tier tier, String agentClass) {
    Path dir = ledgerDirectory(tier);
    return switch (tier) {
      case HOT -> dir.resolve("governance.jsonl");
      case HO3 -> dir.resolve("anchors.jsonl");
      case HO1 -> dir.resolve("worker.jsonl");
      case HO2 -> dir.resolve(checkAgentClass(agentClass)).resolve("workorder.jsonl");
    };
  }

  /**
   * The directory holding a tier's ledger files and everything written beside them (the
   * {@code .head} sidecar, {@code .torn-*} and {@code .quarantine-*} files; for HO2, one
   * sub-directory per agent class). Nothing else belongs there.
   */
  public Path ledgerDirectory(Tier tier) {
    return root.resolve(tier.name()).resolve("ledger");
  }

  public static String checkAgentClass(String agentClass) {
    if (agentClass == null || !AGENT_CLASS.matcher(agentClass).matches()) {
      throw new IllegalArgumentException("agent class '" + agentClass
          + "' is not valid: use upper-case letters, digits and _ (e.g. ADMIN)");
    }
    return agentClass;
  }

  /** A ledger that exists on disk. */
  public record LedgerFile(Tier tier, String agentClass, Path path) {
    public String label() {
      return agentClass == null ? tier.wireName() : tier.wireName() + "/" + agentClass;
    }

    /** The tier in upper case, with the agent class for HO2 ({@code HOT}, {@code HO2/ADMIN}). */
    public String tierName() {
      return agentClass == null ? tier.name() : tier.name() + "/" + agentClass;
    }
  }

  /** Every ledger file present under the root, HOT first. */
  public List<LedgerFile> existingLedgers() {
    List<LedgerFile> out = new ArrayList<>();
    for (Tier tier : new Tier[] {Tier.HOT, Tier.HO3, Tier.HO2, Tier.HO1}) {
      if (tier == Tier.HO2) {
        Path dir = ledgerDirectory(Tier.HO2);
        if (Files.isDirectory(dir)) {
          try (Stream<Path> classes = Files.list(dir)) {
            classes.filter(Files::isDirectory).map(p -> p.getFileName().toString()).sorted()
                .filter(c -> AGENT_CLASS.matcher(c).matches())
                .forEach(c -> {
                  Path p = ledgerPath(Tier.HO2, c);
                  if (Files.isRegularFile(p)) {
                    out.add(new LedgerFile(Tier.HO2, c, p));
                  }
                });
          } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir, e);
          }
        }
      } else {
        Path p = ledgerPath(tier, null);
        if (Files.isRegularFile(p)) {
          out.add(new LedgerFile(tier, null, p));
        }
      }
    }
    return out;
  }

  /**
   * The plane root and tier of a ledger file, when {@code ledger} has the shape of one of a
   * plane's ledgers ({@code <root>/HOT/ledger/governance.jsonl} and so on); empty otherwise.
   */
  public static Optional<LedgerFile> fileOf(Path ledger) {
    Path p = ledger.toAbsolutePath().normalize();
    String name = String.valueOf(p.getFileName());
    Path dir = p.getParent();
    for (Tier tier : Tier.values()) {
      Path tierDir = tier == Tier.HO2 ? parent(dir) : dir;
      String agentClass = tier == Tier.HO2 && dir != null ? String.valueOf(dir.getFileName()) : null;
      if (tierDir == null || !"ledger".equals(String.valueOf(tierDir.getFileName())) || tierDir.getParent() == null
          || !tier.name().equals(String.valueOf(tierDir.getParent().getFileName()))) {
        continue;
      }
      if (agentClass != null && !AGENT_CLASS.matcher(agentClass).matches()) {
        continue;
      }
      Path root = tierDir.getParent().getParent();
      if (root != null && new PlaneLayout(root).ledgerPath(tier, agentClass).getFileName().toString().equals(name)) {
        return Optional.of(new LedgerFile(tier, agentClass, p));
      }
    }
    return Optional.empty();
  }

  /** The plane root a ledger file of {@link #fileOf} lies under. */
  public static Path rootOf(LedgerFile f) {
    Path tierDir = f.tier() == Tier.HO2 ? f.path().getParent().getParent().getParent() : f.path().getParent().getParent();
    return tierDir.getParent();
  }

  private static Path parent(Path p) {
    return p == null ? null : p.getParent();
  }

  /**
   * The tier a ledger file belongs to by where it lives under a plane root ({@code <TIER>/ledger/...}),
   * in lower case as the append-latency metric labels it; {@code other} for a file elsewhere.
   */
  static String tierLabel(Path path) {
    for (Path p = path.getParent(); p != null && p.getParent() != null; p = p.getParent()) {
      if (p.getFileName().toString().equals("ledger")) {
        String tier = p.getParent().getFileName().toString();
        for (Tier t : Tier.values()) {
          if (t.name().equals(tier)) {
            return t.wireName();
          }
        }
      }
    }
    return "other";
  }

  /** The path relative to the root, for messages. */
  public String relative(Path p) {
    Path abs = p.toAbsolutePath().normalize();
    return abs.startsWith(root) ? root.relativize(abs).toString() : abs.toString();
  }
}

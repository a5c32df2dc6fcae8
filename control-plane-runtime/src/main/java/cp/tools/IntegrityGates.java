package cp.tools;

import cp.contracts.Catalog;
import cp.contracts.CatalogException;
import cp.contracts.ResourceSource;
import cp.ledger.StreamId;
import cp.ledger.Ledgers;
import cp.ledger.PlaneLayout;
import cp.ledger.VerifyResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The plane's integrity gates, each a pass or fail with a detail line:
 * <ul>
 *   <li>{@code G-PLANE-ROOT}: the plane root exists, is a directory and is writable;
 *   <li>{@code G-CATALOG}: contracts, prompt packs, agent configurations and attention templates
 *       loaded and passed their schemas;
 *   <li>{@code G-ARTIFACTS}: every artifact still has the SHA-256 recorded at load;
 *   <li>{@code G-LEDGER-<TIER>[-<CLASS>]}, one per existing ledger file: its hash chain verifies
 *       (a failure names the first bad line and why).
 * </ul>
 * Used by the {@code gate_check} tool and by {@code cpctl gate-check}. Safe to share between threads.
 */
public final class IntegrityGates {
  public static final String PLANE_ROOT = "G-PLANE-ROOT";
  public static final String CATALOG = "G-CATALOG";
  public static final String ARTIFACTS = "G-ARTIFACTS";
  /** Ledger gates are this prefix, the tier and, for HO2, the agent class: {@code G-LEDGER-HO2-ADMIN}. */
  public static final String LEDGER_PREFIX = "G-LEDGER-";
  /** Reported instead of ledger gates when the ledger directories cannot be listed. */
  public static final String LEDGERS = "G-LEDGERS";
  /** A failing G-CATALOG quotes at most this many of the loader's problems. */
  static final int MAX_QUOTED_PROBLEMS = 5;
  static final int MAX_DETAIL_CHARS = 300;

  private final CatalogStatus catalog;
  private final Ledgers ledgers;
  private final ResourceSource schemaSource;

  public IntegrityGates(CatalogStatus catalog, Ledgers ledgers) {
    this.catalog = Objects.requireNonNull(catalog, "catalog");
    this.ledgers = Objects.requireNonNull(ledgers, "ledgers");
    this.schemaSource = ResourceSource.classpath();
  }

  /** Gates over a catalog loaded from {@code source}. */
  public static IntegrityGates of(Catalog catalog, ResourceSource source, Ledgers ledgers) {
    return new IntegrityGates(CatalogStatus.loaded(catalog, source), ledgers);
  }

  /** The ids {@link #run} accepts now: the fixed gates, then one per existing ledger file. */
  public List<String> knownGateIds() {
    List<String> ids = new ArrayList<>(List.of(PLANE_ROOT, CATALOG, ARTIFACTS));
    try {
      ledgerFiles().forEach(f -> ids.add(ledgerGateId(f)));
    } catch (RuntimeException e) {
      ids.add(LEDGERS);
    }
    return ids;
  }

  /** Every gate, fixed gates first, then the ledgers (HOT, HO3, HO2 by class, HO1). */
  public List<GateResult> runAll() {
    List<GateResult> out = new ArrayList<>(List.of(planeRoot(), catalogGate(), artifacts()));
    List<PlaneLayout.LedgerFile> files;
    try {
      files = ledgerFiles();
    } catch (RuntimeException e) {
      out.add(GateResult.fail(LEDGERS, "cannot list the ledger files: " + message(e)));
      return out;
    }
    files.forEach(f -> out.add(ledgerGate(f)));
    return out;
  }

  /**
   * One gate by id (case-insensitive).
   *
   * @throws UnknownGateException listing the known gate ids
   */
  public GateResult run(String gateId) {
    String id = gateId == null ? "" : gateId.strip().toUpperCase(Locale.ROOT);
    switch (id) {
      case PLANE_ROOT:
        return planeRoot();
      case CATALOG:
        return catalogGate();
      case ARTIFACTS:
        return artifacts();
      default:
        break;
    }
    if (id.startsWith(LEDGER_PREFIX)) {
      for (PlaneLayout.LedgerFile f : ledgerFiles()) {
        if (ledgerGateId(f).equals(id)) {
          return ledgerGate(f);
        }
      }
    }
    throw new UnknownGateException(gateId, knownGateIds());
  }

  /** {@code G-LEDGER-HOT}, {@code G-LEDGER-HO2-ADMIN}, ... */
  public static String ledgerGateId(PlaneLayout.LedgerFile f) {
    return LEDGER_PREFIX + f.tier().name() + (f.agentClass() == null ? "" : "-" + f.agentClass());
  }

  private GateResult planeRoot() {
    Path root = ledgers.layout().root();
    if (!Files.exists(root)) {
      return GateResult.fail(PLANE_ROOT, "plane root " + root + " does not exist; create it or point CP_HOME at it");
    }
    if (!Files.isDirectory(root)) {
      return GateResult.fail(PLANE_ROOT, "plane root " + root + " is not a directory; point CP_HOME at a directory");
    }
    if (!Files.isWritable(root)) {
      return GateResult.fail(PLANE_ROOT, "plane root " + root + " is not writable by this process; ledgers cannot "
          + "be appended until its permissions are fixed");
    }
    return GateResult.pass(PLANE_ROOT, root + " exists, is a directory and is writable");
  }

  private GateResult catalogGate() {
    if (catalog.catalog() != null) {
      Catalog c = catalog.catalog();
      return GateResult.pass(CATALOG, c.contracts().size() + " contracts, " + c.promptPacks().size()
          + " prompt packs, " + c.agents().size() + " agent configs and " + c.attentionTemplates().size()
          + " attention templates loaded and schema-valid from " + c.source());
    }
    RuntimeException e = catalog.loadError();
    if (e instanceof CatalogException ce && !ce.problems().isEmpty()) {
      List<String> quoted = ce.problems().subList(0, Math.min(MAX_QUOTED_PROBLEMS, ce.problems().size()));
      return GateResult.fail(CATALOG, "the catalog from " + catalog.source().description() + " was refused with "
          + ce.problems().size() + " problem(s): " + String.join("; ", quoted)
          + (ce.problems().size() > quoted.size() ? "; ..." : "") + "; fix the files named and restart");
    }
    return GateResult.fail(CATALOG, "the catalog from " + catalog.source().description() + " did not load: "
        + message(e) + "; fix it and restart");
  }

  private GateResult artifacts() {
    if (catalog.catalog() == null) {
      return GateResult.fail(ARTIFACTS, "no catalog is loaded, so no artifact hashes were recorded; see " + CATALOG);
    }
    try {
      return ArtifactHashCheck.check(ARTIFACTS, catalog.catalog(), catalog.source(), schemaSource);
    } catch (RuntimeException e) {
      return GateResult.fail(ARTIFACTS, "cannot re-read the artifacts: " + message(e));
    }
  }

  private GateResult ledgerGate(PlaneLayout.LedgerFile f) {
    String id = ledgerGateId(f);
    String rel = ledgers.store().location(new StreamId(f.tier(), f.agentClass()));
    try {
      // The store's verification: read-only for a file no writer of this process has open (cpctl gate-check
      // reports a torn tail as ledger verify does, instead of moving it aside and passing); the open ledger's
      // own in a worker.
      VerifyResult r = ledgers.store().verify(new StreamId(f.tier(), f.agentClass()));
      if (r.ok()) {
        return GateResult.pass(id, rel + ": " + entries(r.entries()) + ", hash chain intact");
      }
      return GateResult.fail(id, rel + ": line " + r.firstBadLine() + " is bad: " + r.reason() + " ("
          + entries(r.entries()) + " before it verified); inspect with 'cpctl ledger verify'");
    } catch (RuntimeException e) {
      return GateResult.fail(id, rel + ": cannot verify: " + message(e));
    }
  }

  private static String entries(long n) {
    return n + (n == 1 ? " entry" : " entries");
  }

  /** The streams of the plane's store (JSONL files, or PostgreSQL streams under their nominal paths). */
  private List<PlaneLayout.LedgerFile> ledgerFiles() {
    List<PlaneLayout.LedgerFile> out = new java.util.ArrayList<>();
    for (StreamId s : ledgers.store().streams()) {
      out.add(new PlaneLayout.LedgerFile(s.tier(), s.agentClass(), ledgers.layout().ledgerPath(s.tier(), s.agentClass())));
    }
    return out;
  }

  private static String message(RuntimeException e) {
    String m = BoundedText.firstLine(e.getMessage(), MAX_DETAIL_CHARS);
    return e.getClass().getSimpleName() + (m.isEmpty() ? "" : ": " + m);
  }
}

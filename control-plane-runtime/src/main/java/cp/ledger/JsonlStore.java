package cp.ledger;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The embedded default store: one hash-chained JSONL file per stream under the plane root
 * ({@link PlaneLayout}), each a {@link Ledger}. Works while every process of a deployment shares
 * the directory (one host).
 */
public final class JsonlStore implements LedgerStore {
  private final PlaneLayout layout;
  private final LedgerSettings settings;
  private final Map<Path, Ledger> open = new ConcurrentHashMap<>();

  public JsonlStore(PlaneLayout layout, LedgerSettings settings) {
    this.layout = layout;
    this.settings = settings;
  }

  @Override
  public Ledger open(StreamId id) {
    Path p = layout.ledgerPath(id.tier(), id.agentClass());
    return open.computeIfAbsent(p, k -> Ledger.open(k, settings.options(id.tier())));
  }

  @Override
  public boolean exists(StreamId id) {
    Path p = layout.ledgerPath(id.tier(), id.agentClass());
    return open.containsKey(p) || Files.isRegularFile(p);
  }

  /** Read-only: the file is not opened for writing, so a torn tail or a bad head is reported as found. */
  @Override
  public VerifyResult verify(StreamId id) {
    Path p = layout.ledgerPath(id.tier(), id.agentClass());
    return Ledger.verifyFile(p, settings.options(id.tier()), true);
  }

  @Override
  public List<StreamId> streams() {
    List<StreamId> out = new ArrayList<>();
    for (PlaneLayout.LedgerFile f : layout.existingLedgers()) {
      out.add(new StreamId(f.tier(), f.agentClass()));
    }
    return out;
  }

  @Override
  public List<HeadCheckpoint.Finding> crossCheck(List<ExpectedHead> expected) {
    return HeadCheckpoint.crossCheck(layout, expected);
  }

  @Override
  public String describe() {
    return "JSONL files under " + layout.root();
  }

  @Override
  public String location(StreamId id) {
    return layout.relative(layout.ledgerPath(id.tier(), id.agentClass()));
  }

  @Override
  public void close() {
    for (Ledger l : open.values()) {
      l.close();
    }
    open.clear();
  }
}

package cp.ledger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.observability.SecretMasker;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * A store whose streams mask secrets in every entry before it is appended (issue 20 §1 "Secrets in
 * part"): the one place every ledger write of a worker passes, whatever store holds the stream and
 * whatever wrote the entry (gateway, activities, tools, approvals).
 *
 * <p>What is masked: the entry's {@code reason}, {@code decision} and every text value of its
 * {@code metadata}, by {@link SecretMasker}. The chain then hashes the masked entry, so
 * {@code ledger verify} works as before. For each masked value the entry keeps, under
 * {@code metadata.masked}, its JSON pointer and {@code sha256:} of the unmasked text, so whoever
 * holds the original (a provider's log, the file a tool read) can prove what was recorded; a value
 * that was nothing but a secret keeps no hash (there is nothing else to prove, and a hash of a
 * short secret alone could be guessed). Entry ids, idempotency keys, timestamps and hashes are ours
 * and never masked. Reads are not masked: an entry written before masking existed reads as written
 * (the CLI masks what it prints).
 *
 * <p>It overrides every method of {@link LedgerStore} and {@link LedgerStream}, defaults included, so
 * a store's own implementation of a default (a cheaper probe, a torn-attempt lookup) is never
 * replaced by the interface's ({@code MaskingLedgerStoreTest} checks this by reflection).
 *
 * <p>Thread safety: as the wrapped store's; the masker is thread-safe.
 */
public final class MaskingLedgerStore implements LedgerStore {
  /** The metadata field that lists the masked values: JSON pointer to {@code sha256:<hex>} or {@code null}. */
  public static final String MASKED = "masked";

  private final LedgerStore store;
  private final SecretMasker masker;

  public MaskingLedgerStore(LedgerStore store, SecretMasker masker) {
    this.store = Objects.requireNonNull(store, "store");
    this.masker = Objects.requireNonNull(masker, "masker");
  }

  /** {@code entry} with its secrets masked (itself when it holds none). */
  public static LedgerEntry mask(LedgerEntry entry, SecretMasker masker) {
    Map<String, String> masked = new TreeMap<>();
    String reason = maskField(entry.reason(), "/reason", masker, masked);
    String decision = maskField(entry.decision(), "/decision", masker, masked);
    JsonNode meta = masker.mask(entry.metadata(), (pointer, original) -> masked.put("/metadata" + pointer,
        proof(original, masker)));
    if (masked.isEmpty()) {
      return entry;
    }
    ObjectNode m = (ObjectNode) meta; // metadata() is a copy, and the walk copies what it changes
    ObjectNode list = m.putObject(MASKED);
    masked.forEach((k, v) -> {
      if (v == null) {
        list.putNull(k);
      } else {
        list.put(k, v);
      }
    });
    return entry.toBuilder().reason(reason).decision(decision).metadata(m).build();
  }

  private static String maskField(String value, String pointer, SecretMasker masker, Map<String, String> masked) {
    if (value == null) {
      return null;
    }
    String out = masker.mask(value);
    if (!out.equals(value)) {
      masked.put(pointer, proof(value, masker));
    }
    return out;
  }

  /** {@code sha256:<hex>} of the unmasked text, or null when it was nothing but secrets. */
  private static String proof(String original, SecretMasker masker) {
    String rest = masker.mask(original).replaceAll("\\[masked:[^\\]]*\\]", "").strip();
    if (rest.isEmpty()) {
      return null;
    }
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(original.getBytes(StandardCharsets.UTF_8));
      return "sha256:" + HexFormat.of().formatHex(d);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
  }

  @Override
  public LedgerStream open(StreamId id) {
    return new MaskingStream(store.open(id), masker);
  }

  @Override
  public boolean exists(StreamId id) {
    return store.exists(id);
  }

  @Override
  public List<StreamId> streams() {
    return store.streams();
  }

  @Override
  public VerifyResult verify(StreamId id) {
    return store.verify(id);
  }

  @Override
  public List<HeadCheckpoint.Finding> crossCheck() {
    return store.crossCheck();
  }

  @Override
  public List<HeadCheckpoint.Finding> crossCheck(List<ExpectedHead> expected) {
    return store.crossCheck(expected);
  }

  @Override
  public String describe() {
    return store.describe();
  }

  @Override
  public String location(StreamId id) {
    return store.location(id);
  }

  @Override
  public void close() {
    store.close();
  }

  /** A stream whose writes are masked; everything else is the wrapped stream's. */
  private static final class MaskingStream implements LedgerStream {
    private final LedgerStream stream;
    private final SecretMasker masker;

    MaskingStream(LedgerStream stream, SecretMasker masker) {
      this.stream = stream;
      this.masker = masker;
    }

    @Override
    public Appended append(LedgerEntry entry) {
      return stream.append(mask(entry, masker));
    }

    @Override
    public String write(LedgerEntry entry) {
      return append(entry).entryId();
    }

    @Override
    public Optional<LedgerEntry> tornAttempt(String idempotencyKey) {
      return stream.tornAttempt(idempotencyKey);
    }

    @Override
    public Optional<LedgerProblem> writable() {
      return stream.writable();
    }

    @Override
    public String location() {
      return stream.location();
    }

    @Override
    public List<LedgerEntry> query(LedgerQuery q) {
      return stream.query(q);
    }

    @Override
    public void visitNewestFirst(LedgerQuery q, Predicate<LedgerEntry> visitor) {
      stream.visitNewestFirst(q, visitor);
    }

    @Override
    public Optional<LedgerEntry> byId(String entryId) {
      return stream.byId(entryId);
    }

    @Override
    public Optional<String> idForKey(String idempotencyKey) {
      return stream.idForKey(idempotencyKey);
    }

    @Override
    public Optional<String> hashOf(String entryId) {
      return stream.hashOf(entryId);
    }

    @Override
    public long size() {
      return stream.size();
    }

    @Override
    public Optional<Long> lineOf(String entryId) {
      return stream.lineOf(entryId);
    }

    @Override
    public VerifyResult verify() {
      return stream.verify();
    }

    @Override
    public Optional<VerifyResult> brokenChain() {
      return stream.brokenChain();
    }

    @Override
    public Optional<LedgerProblem> appendProblem() {
      return stream.appendProblem();
    }

    @Override
    public Optional<String> repair() {
      return stream.repair();
    }

    @Override
    public void flush() {
      stream.flush();
    }

    @Override
    public void close() {
      stream.close();
    }

    @Override
    public List<LedgerEntry> readAll() {
      return stream.readAll();
    }

    @Override
    public List<LedgerEntry> byEventType(String eventType) {
      return stream.byEventType(eventType);
    }

    @Override
    public List<LedgerEntry> bySession(String sessionId) {
      return stream.bySession(sessionId);
    }

    @Override
    public List<LedgerEntry> byWorkOrder(String woId) {
      return stream.byWorkOrder(woId);
    }

    @Override
    public List<LedgerEntry> lastN(int n) {
      return stream.lastN(n);
    }

    @Override
    public String toString() {
      return stream.toString();
    }
  }
}

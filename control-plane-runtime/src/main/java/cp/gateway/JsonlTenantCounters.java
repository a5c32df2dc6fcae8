package cp.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import cp.model.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tenant counters in one JSONL file under CP_HOME ({@code spend/tenant-counters.jsonl}), for the
 * workers of one host: every reservation and settlement is a line, appended and forced to disk
 * under an exclusive file lock, so processes sharing the plane root share the counters and a
 * restart keeps them. Each call reads the lines other processes added since its last call, then
 * decides. A line torn by a crash is skipped (its call then counts as unreserved, like an expired one).
 */
public final class JsonlTenantCounters implements TenantCounters {
  private static final Logger LOG = LoggerFactory.getLogger(JsonlTenantCounters.class);
  /** The file under the plane root. */
  public static final String FILE = "spend/tenant-counters.jsonl";
  /** How long a thread of this process waits before asking again for a lock another of its threads holds. */
  private static final long LOCK_RETRY_MILLIS = 1;

  private record Reservation(String tenant, String day, String month, double amount, long expiresMillis,
      Double actual) {
    boolean counts(long nowMillis) {
      return actual != null || expiresMillis > nowMillis;
    }

    double value() {
      return actual != null ? actual : amount;
    }
  }

  private final Path file;
  private final Map<String, Reservation> reservations = new HashMap<>();
  private long readUpTo;

  public JsonlTenantCounters(Path home) {
    this.file = home.resolve(FILE);
    try {
      Files.createDirectories(file.getParent());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create " + file.getParent(), e);
    }
  }

  @Override
  public synchronized Decision reserve(String tenant, TenantCaps.Caps caps, String key, double amount, Instant now,
      Instant expires) {
    return locked(ch -> {
      if (reservations.containsKey(key)) {
        return Decision.ok();
      }
      Decision d = TenantCounters.decide(caps, amount, totalsNow(tenant, now), now);
      if (d.granted()) {
        Reservation r = new Reservation(tenant, TenantCounters.day(now), TenantCounters.month(now), amount,
            expires.toEpochMilli(), null);
        append(ch, Json.object().put("op", "reserve").put("key", key).put("tenant", tenant).put("day", r.day())
            .put("month", r.month()).put("amount", amount).put("expires_ms", r.expiresMillis()).toString());
        reservations.put(key, r);
      }
      return d;
    });
  }

  @Override
  public synchronized void settle(String key, double actual) {
    locked(ch -> {
      Reservation r = reservations.get(key);
      if (r != null && r.actual() == null) {
        append(ch, Json.object().put("op", "settle").put("key", key).put("actual", actual).toString());
        reservations.put(key, new Reservation(r.tenant(), r.day(), r.month(), r.amount(), r.expiresMillis(), actual));
      }
      return null;
    });
  }

  @Override
  public synchronized void release(String key) {
    locked(ch -> {
      Reservation r = reservations.get(key);
      if (r != null && r.actual() == null) {
        append(ch, Json.object().put("op", "release").put("key", key).toString());
        reservations.remove(key);
      }
      return null;
    });
  }

  /**
   * One line, {@code {"op": "rebuild", "tenant": …, "days": {"2026-11-26": 0.12, …}}}: the tenant's
   * settled calls are replaced by one settled amount per day (applied alike by every reader of the
   * file, so processes sharing the plane root see the same counters).
   */
  @Override
  public synchronized Rebuilt rebuild(String tenant, Map<String, Double> spentByDay, Instant now) {
    return locked(ch -> {
      Totals before = totalsNow(tenant, now);
      int inFlight = (int) reservations.values().stream()
          .filter(r -> r.tenant().equals(tenant) && r.actual() == null && r.expiresMillis() > now.toEpochMilli())
          .count();
      if (inFlight > 0) {
        return new Rebuilt(tenant, before, before, inFlight);
      }
      var line = Json.object().put("op", "rebuild").put("tenant", tenant);
      var days = line.putObject("days");
      new java.util.TreeMap<>(spentByDay).forEach(days::put);
      append(ch, line.toString());
      apply(line.toString());
      return new Rebuilt(tenant, before, totalsNow(tenant, now), 0);
    });
  }

  @Override
  public synchronized Totals totals(String tenant, Instant now) {
    return locked(ch -> totalsNow(tenant, now));
  }

  @Override
  public synchronized Map<String, Double> heldByTenant(Instant now) {
    // What 'cpctl spend' reads: on a read-only channel under a shared lock, so a reader writes and creates nothing.
    if (!java.nio.file.Files.exists(file)) {
      return Map.of(); // no call has reserved anything yet: nothing is held
    }
    return readLocked(ch -> {
      Map<String, Double> held = new java.util.TreeMap<>();
      for (Reservation r : reservations.values()) {
        if (r.actual() == null && r.counts(now.toEpochMilli())) {
          held.merge(r.tenant(), r.amount(), Double::sum);
        }
      }
      return held;
    });
  }

  private Totals totalsNow(String tenant, Instant now) {
    String day = TenantCounters.day(now);
    String month = TenantCounters.month(now);
    long nowMillis = now.toEpochMilli();
    double[] t = new double[4];
    for (Reservation r : reservations.values()) {
      if (!r.tenant().equals(tenant) || !r.counts(nowMillis)) {
        continue;
      }
      int held = r.actual() == null ? 1 : 0;
      if (r.day().equals(day)) {
        t[held] += r.value();
      }
      if (r.month().equals(month)) {
        t[2 + held] += r.value();
      }
    }
    return new Totals(t[0], t[1], t[2], t[3]);
  }

  private interface Step<T> {
    T run(FileChannel ch) throws IOException;
  }

  /** Runs {@code step} holding the file's exclusive lock, after reading what others appended. */
  private <T> T locked(Step<T> step) {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
        StandardOpenOption.WRITE)) {
      try (FileLock lock = lock(ch)) {
        catchUp(ch);
        return step.run(ch);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("tenant counters " + file + ": " + e.getMessage(), e);
    }
  }

  /** Runs {@code step} holding a shared lock on a read-only channel (writers wait), after reading what others appended. */
  private <T> T readLocked(Step<T> step) {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      try (FileLock lock = lock(ch, true)) {
        catchUp(ch);
        return step.run(ch);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("tenant counters " + file + ": " + e.getMessage(), e);
    }
  }

  private static FileLock lock(FileChannel ch) throws IOException {
    return lock(ch, false);
  }

  private static FileLock lock(FileChannel ch, boolean shared) throws IOException {
    while (true) {
      try {
        return ch.lock(0, Long.MAX_VALUE, shared);
      } catch (OverlappingFileLockException e) {
        // Another counters object of this process holds it (two workers in one JVM): wait for it.
        try {
          Thread.sleep(LOCK_RETRY_MILLIS);
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          throw new IOException("interrupted while waiting for the tenant counters' lock", ie);
        }
      }
    }
  }

  private void catchUp(FileChannel ch) throws IOException {
    long size = ch.size();
    if (size <= readUpTo) {
      return;
    }
    ByteBuffer buf = ByteBuffer.allocate((int) (size - readUpTo));
    ch.read(buf, readUpTo);
    String text = new String(buf.array(), 0, buf.position(), StandardCharsets.UTF_8);
    int end = text.lastIndexOf('\n');
    if (end < 0) {
      return;
    }
    for (String line : text.substring(0, end).split("\n")) {
      apply(line);
    }
    readUpTo += text.substring(0, end + 1).getBytes(StandardCharsets.UTF_8).length;
  }

  private void apply(String line) {
    if (line.isBlank()) {
      return;
    }
    JsonNode n;
    try {
      n = Json.parse(line);
    } catch (RuntimeException e) {
      LOG.warn("tenant counters {}: skipping a line that is not JSON (torn by a crash?)", file);
      return;
    }
    String key = n.path("key").asText();
    if ("reserve".equals(n.path("op").asText())) {
      reservations.putIfAbsent(key, new Reservation(n.path("tenant").asText(), n.path("day").asText(),
          n.path("month").asText(), n.path("amount").asDouble(), n.path("expires_ms").asLong(), null));
    } else if ("release".equals(n.path("op").asText())) {
      Reservation r = reservations.get(key);
      if (r != null && r.actual() == null) {
        reservations.remove(key);
      }
    } else if ("rebuild".equals(n.path("op").asText())) {
      String tenant = n.path("tenant").asText();
      reservations.values().removeIf(r -> r.tenant().equals(tenant) && r.actual() != null);
      n.path("days").fields().forEachRemaining(d -> reservations.put(TenantCounters.rebuiltKey(tenant, d.getKey()),
          new Reservation(tenant, d.getKey(), TenantCounters.monthOf(d.getKey()), d.getValue().asDouble(), 0,
              d.getValue().asDouble())));
    } else if ("settle".equals(n.path("op").asText())) {
      Reservation r = reservations.get(key);
      if (r != null) {
        reservations.put(key, new Reservation(r.tenant(), r.day(), r.month(), r.amount(), r.expiresMillis(),
            n.path("actual").asDouble()));
      }
    }
  }

  /** Appends one line and forces it to disk; a torn tail left by a crash is ended first. */
  private void append(FileChannel ch, String json) throws IOException {
    long size = ch.size();
    String prefix = "";
    if (size > 0) {
      ByteBuffer last = ByteBuffer.allocate(1);
      ch.read(last, size - 1);
      prefix = last.get(0) == '\n' ? "" : "\n";
    }
    byte[] bytes = (prefix + json + "\n").getBytes(StandardCharsets.UTF_8);
    ch.write(ByteBuffer.wrap(bytes), size);
    ch.force(false);
    readUpTo = size + bytes.length;
  }
}

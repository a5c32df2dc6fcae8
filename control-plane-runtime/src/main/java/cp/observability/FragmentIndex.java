package cp.observability;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;

/**
 * The configured secrets' fragments {@link SecretMasker} looks for: every window of
 * {@link SecretMasker#MIN_FRAGMENT} characters ({@link SecretMasker#MIN_HEX_FRAGMENT} for a secret
 * of hex digits only) of each secret and of its encodings, found in a text by one rolling-hash scan
 * per window length. Immutable: {@link #with} returns a new index.
 */
final class FragmentIndex {
  static final FragmentIndex EMPTY = new FragmentIndex(Map.of(), Map.of(), 0);

  private record Fragment(String text, String label) {}

  /** Per window length: rolling hash to the fragments with that hash, and the same hashes as a probe set. */
  private final Map<Integer, Map<Long, List<Fragment>>> byLength;
  private final Map<Integer, LongSet> hashes;
  private final int count;

  private FragmentIndex(Map<Integer, Map<Long, List<Fragment>>> byLength, Map<Integer, LongSet> hashes, int count) {
    this.byLength = byLength;
    this.hashes = hashes;
    this.count = count;
  }

  /** How many secrets the index holds. */
  int count() {
    return count;
  }

  /** This index plus {@code secret} (and its forms), named {@code label}. */
  FragmentIndex with(String label, String secret) {
    Map<Integer, Map<Long, List<Fragment>>> copy = new HashMap<>();
    byLength.forEach((k, v) -> {
      Map<Long, List<Fragment>> grams = new HashMap<>();
      v.forEach((h, list) -> grams.put(h, new ArrayList<>(list)));
      copy.put(k, grams);
    });
    for (String form : forms(secret)) {
      int k = form.chars().allMatch(c -> Character.digit(c, 16) >= 0) ? SecretMasker.MIN_HEX_FRAGMENT
          : SecretMasker.MIN_FRAGMENT;
      if (form.length() < k) {
        continue;
      }
      Map<Long, List<Fragment>> grams = copy.computeIfAbsent(k, x -> new HashMap<>());
      // A key's public prefix (sk-ant-api03-) is not secret: every key of its kind starts so.
      Matcher prefix = SecretPatterns.PUBLIC_PREFIX.matcher(form);
      int firstSecret = prefix.lookingAt() ? prefix.end() : 0;
      for (int i = Math.max(0, firstSecret - k + 1); i + k <= form.length(); i++) {
        String gram = form.substring(i, i + k);
        List<Fragment> list = grams.computeIfAbsent(hash(gram, 0, k), x -> new ArrayList<>());
        if (list.stream().noneMatch(f -> f.text().equals(gram))) {
          list.add(new Fragment(gram, label));
        }
      }
    }
    Map<Integer, LongSet> probe = new HashMap<>();
    copy.forEach((k, grams) -> probe.put(k, new LongSet(grams.keySet())));
    return new FragmentIndex(copy, probe, count + 1);
  }

  /** The secret's forms that may appear in text: itself, base64 (both alphabets, three alignments), URL-encoded. */
  static List<String> forms(String secret) {
    List<String> out = new ArrayList<>();
    out.add(secret);
    byte[] bytes = secret.getBytes(StandardCharsets.UTF_8);
    for (int shift = 0; shift < 3 && shift < bytes.length; shift++) {
      byte[] tail = java.util.Arrays.copyOfRange(bytes, shift, bytes.length);
      String b64 = Base64.getEncoder().withoutPadding().encodeToString(tail);
      // The last group mixes in whatever byte follows the secret in the encoded text: leave it out.
      int whole = (tail.length / 3) * 4;
      String stable = b64.substring(0, whole);
      out.add(stable);
      out.add(stable.replace('+', '-').replace('/', '_'));
    }
    String url = URLEncoder.encode(secret, StandardCharsets.UTF_8);
    if (!url.equals(secret)) {
      out.add(url);
    }
    return out.stream().distinct().toList();
  }

  /** {@code text} with every run covered by a fragment replaced by {@code [masked:LABEL]}. */
  String mask(String text) {
    if (count == 0) {
      return text;
    }
    int n = text.length();
    int[] end = null; // end[i] > i: the run starting at i to be masked ends there
    String[] label = null;
    for (Map.Entry<Integer, Map<Long, List<Fragment>>> e : byLength.entrySet()) {
      int k = e.getKey();
      if (n < k) {
        continue;
      }
      Map<Long, List<Fragment>> grams = e.getValue();
      LongSet present = hashes.get(k);
      long pow = 1;
      for (int i = 0; i < k - 1; i++) {
        pow *= PRIME;
      }
      long h = hash(text, 0, k);
      for (int i = 0; ; i++) {
        List<Fragment> hits = present.contains(h) ? grams.get(h) : null;
        if (hits != null) {
          for (Fragment f : hits) {
            if (text.regionMatches(i, f.text(), 0, k)) {
              if (end == null) {
                end = new int[n];
                label = new String[n];
              }
              if (end[i] < i + k) {
                end[i] = i + k;
                if (label[i] == null) {
                  label[i] = f.label();
                }
              }
              break;
            }
          }
        }
        if (i + k >= n) {
          break;
        }
        h = (h - text.charAt(i) * pow) * PRIME + text.charAt(i + k);
      }
    }
    if (end == null) {
      return text;
    }
    StringBuilder sb = new StringBuilder(n);
    int i = 0;
    while (i < n) {
      if (end[i] > i) {
        int runEnd = end[i];
        String name = label[i];
        for (int j = i; j < runEnd; j++) {
          runEnd = Math.max(runEnd, end[j]);
        }
        sb.append("[masked:").append(name).append(']');
        i = runEnd;
      } else {
        sb.append(text.charAt(i++));
      }
    }
    return sb.toString();
  }

  /** A set of longs in one array (linear probing; 0 marks a free slot, so 0 itself is kept apart). */
  private static final class LongSet {
    private final long[] slots;
    private final boolean zero;

    LongSet(java.util.Collection<Long> values) {
      int cap = Integer.highestOneBit(Math.max(4, values.size() * 4) - 1) << 1;
      slots = new long[cap];
      boolean z = false;
      for (long v : values) {
        if (v == 0) {
          z = true;
          continue;
        }
        int i = mix(v) & (cap - 1);
        while (slots[i] != 0 && slots[i] != v) {
          i = (i + 1) & (cap - 1);
        }
        slots[i] = v;
      }
      zero = z;
    }

    boolean contains(long v) {
      if (v == 0) {
        return zero;
      }
      int i = mix(v) & (slots.length - 1);
      while (slots[i] != 0) {
        if (slots[i] == v) {
          return true;
        }
        i = (i + 1) & (slots.length - 1);
      }
      return false;
    }

    private static int mix(long v) {
      long h = v * 0x9E3779B97F4A7C15L;
      return (int) (h ^ (h >>> 32));
    }
  }

  /** The rolling hash's multiplier: a prime above the char range, so distinct windows rarely collide. */
  private static final long PRIME = 1_000_003L;

  /** Polynomial hash of {@code s[from, from+k)} (wrapping on overflow), the same the rolling update computes. */
  private static long hash(String s, int from, int k) {
    long h = 0;
    for (int i = from; i < from + k; i++) {
      h = h * PRIME + s.charAt(i);
    }
    return h;
  }

}

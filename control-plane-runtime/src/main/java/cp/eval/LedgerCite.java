package cp.eval;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.Objects;

/**
 * A ledger entry a case came from: which ledger ({@code HOT}, {@code HO1}, ...), stream, entry id,
 * the entry's hash when frozen, and its type ({@code EXCHANGE}, {@code TOOL_CALL}, ...).
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
public record LedgerCite(String ledger, String stream, String entryId, String hash, String type) {
  public LedgerCite {
    Objects.requireNonNull(ledger, "ledger");
    Objects.requireNonNull(stream, "stream");
    Objects.requireNonNull(entryId, "entryId");
  }
}

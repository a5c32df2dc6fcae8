package cp.contracts;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;

/**
 * Which paths under the plane root an agent's tools may read and write, and whose ledger entries.
 *
 * <p>Each entry is a glob relative to the plane root ({@code HOT/**}, {@code README.md});
 * {@code **} crosses directories, {@code *} does not. A path that matches {@code forbidden}
 * is refused even when {@code read} or {@code write} also match: forbidden wins.
 * {@code ledgerScope} limits ledger reads to the calling session unless it is {@link LedgerScope#ALL};
 * absent, it is {@link LedgerScope#SESSION}, the safe default.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
public record Permissions(List<String> read, List<String> write, List<String> forbidden, LedgerScope ledgerScope) {

  @JsonCreator
  public Permissions {
    read = read == null ? List.of() : List.copyOf(read);
    write = write == null ? List.of() : List.copyOf(write);
    forbidden = forbidden == null ? List.of() : List.copyOf(forbidden);
    ledgerScope = ledgerScope == null ? LedgerScope.SESSION : ledgerScope;
  }

  /** Path globs only; ledger reads limited to the calling session. */
  public Permissions(List<String> read, List<String> write, List<String> forbidden) {
    this(read, write, forbidden, LedgerScope.SESSION);
  }
}

package cp.eval;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;

/**
 * What a run of a case must satisfy. A null field is not checked; an empty {@code tools} list means
 * "no tool called". {@code matches} are Java regular expressions found anywhere in the reply;
 * {@code judge} is a rubric for an LLM judge.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
public record Expectations(Boolean schemaValid, Boolean gatePasses, List<String> tools,
                           List<String> contains, List<String> notContains, List<String> matches,
                           Double maxCostUsd, Long maxTokens, String judge) {
  /** No expectation at all. */
  public static final Expectations NONE = new Expectations(null, null, null, null, null, null, null, null, null);

  public Expectations {
    tools = copy(tools);
    contains = copy(contains);
    notContains = copy(notContains);
    matches = copy(matches);
  }

  /** Whether nothing is expected. */
  @JsonIgnore
  public boolean isEmpty() {
    return equals(NONE);
  }

  /** Keeps null (not checked) apart from empty (checked: none). */
  private static List<String> copy(List<String> list) {
    return list == null ? null : List.copyOf(list);
  }
}

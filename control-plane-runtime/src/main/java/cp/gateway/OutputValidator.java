package cp.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/** Checks a model's text against a contract's output schema; returns every violation (empty: valid). */
@FunctionalInterface
public interface OutputValidator {
  List<String> validate(JsonNode outputSchema, String text);
}

package cp.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * Checks a tool call's arguments against the tool's input schema: every violation, as
 * {@code "<json-pointer or $>: <message>"}; empty when they fit. The gateway holds no schema
 * engine of its own: the worker passes the catalog's ({@code cp.contracts.SchemaValidator}).
 */
@FunctionalInterface
public interface ArgumentValidator {
  /** Accepts any arguments: for providers built outside a worker (benchmarks), where the dispatcher still checks. */
  ArgumentValidator NONE = (schema, arguments) -> List.of();

  List<String> violations(JsonNode schema, JsonNode arguments);
}

package cp.worker;

import cp.workflows.CpSearchAttributes;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.temporal.api.enums.v1.IndexedValueType;
import io.temporal.api.operatorservice.v1.AddSearchAttributesRequest;
import io.temporal.api.operatorservice.v1.ListSearchAttributesRequest;
import io.temporal.api.operatorservice.v1.ListSearchAttributesResponse;
import io.temporal.serviceclient.OperatorServiceStubs;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Makes sure the server knows CpSessionId, CpAgentClass and CpTurn before workflows use them. */
public final class SearchAttributeRegistrar {
  private static final Logger LOG = LoggerFactory.getLogger(SearchAttributeRegistrar.class);

  private SearchAttributeRegistrar() {}

  public static Map<String, IndexedValueType> required() {
    Map<String, IndexedValueType> m = new LinkedHashMap<>();
    m.put(CpSearchAttributes.SESSION_ID.getName(), IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD);
    m.put(CpSearchAttributes.AGENT_CLASS.getName(), IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD);
    m.put(CpSearchAttributes.TURN.getName(), IndexedValueType.INDEXED_VALUE_TYPE_INT);
    m.put(CpSearchAttributes.TENANT.getName(), IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD);
    return m;
  }

  /**
   * Registers the missing attributes. The embedded service cannot list attributes
   * (UNIMPLEMENTED), so an add that fails with ALREADY_EXISTS counts as success.
   */
  public static void ensure(OperatorServiceStubs operator, String namespace) {
    Map<String, IndexedValueType> missing = new LinkedHashMap<>(required());
    try {
      ListSearchAttributesResponse existing = operator.blockingStub()
          .listSearchAttributes(ListSearchAttributesRequest.newBuilder().setNamespace(namespace).build());
      missing.keySet().removeAll(existing.getCustomAttributesMap().keySet());
      missing.keySet().removeAll(existing.getSystemAttributesMap().keySet());
    } catch (StatusRuntimeException e) {
      if (e.getStatus().getCode() != Status.Code.UNIMPLEMENTED) {
        LOG.debug("cannot list search attributes ({}); will try to add them", e.getStatus().getCode());
      }
    }
    if (missing.isEmpty()) {
      return;
    }
    try {
      operator.blockingStub().addSearchAttributes(AddSearchAttributesRequest.newBuilder()
          .setNamespace(namespace).putAllSearchAttributes(missing).build());
      LOG.info("registered search attributes {}", missing.keySet());
    } catch (StatusRuntimeException e) {
      if (e.getStatus().getCode() != Status.Code.ALREADY_EXISTS) {
        throw new IllegalStateException("cannot register search attributes " + missing.keySet() + " in namespace "
            + namespace + ": " + e.getStatus().getCode() + " " + e.getStatus().getDescription()
            + " (register them with 'temporal operator search-attribute create')", e);
      }
    }
  }
}

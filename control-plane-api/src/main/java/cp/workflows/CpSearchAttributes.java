package cp.workflows;

import io.temporal.common.SearchAttributeKey;

/**
 * The search attributes that let the Temporal CLI and Web UI find sessions and turns, e.g.
 * {@code temporal workflow list --query 'CpSessionId="SES-1a2b3c4d"'}. Ids and numbers only:
 * search attributes are stored unencrypted, so user text never goes here.
 */
public final class CpSearchAttributes {
  public static final SearchAttributeKey<String> SESSION_ID = SearchAttributeKey.forKeyword("CpSessionId");
  public static final SearchAttributeKey<String> AGENT_CLASS = SearchAttributeKey.forKeyword("CpAgentClass");
  public static final SearchAttributeKey<Long> TURN = SearchAttributeKey.forLong("CpTurn");
  /** Issue 23: the session's tenant ({@code default} when it was started without one). */
  public static final SearchAttributeKey<String> TENANT = SearchAttributeKey.forKeyword("CpTenant");

  private CpSearchAttributes() {}
}

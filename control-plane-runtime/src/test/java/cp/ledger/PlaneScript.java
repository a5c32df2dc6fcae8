package cp.ledger;

import cp.model.Json;

/**
 * A plane's ledgers as a short session writes them, through the store API only: HOT's
 * SESSION_START, per turn HO2's WO_PLANNED, HO1's two LLM_CALLs, HOT's two EXCHANGEs, HO1's
 * WO_COMPLETED and HO2's WO_CHAIN_COMPLETE, then HOT's SESSION_END. The boundary entries record
 * the other streams' heads, as they do in a real plane.
 */
final class PlaneScript {
  static final StreamId HOT = new StreamId(Tier.HOT, null);
  static final StreamId HO1 = new StreamId(Tier.HO1, null);
  static final StreamId HO2 = new StreamId(Tier.HO2, "ADMIN");

  private PlaneScript() {}

  static void session(LedgerStore store, String sid, int turns) {
    LedgerStream hot = store.open(HOT);
    LedgerStream ho1 = store.open(HO1);
    LedgerStream ho2 = store.open(HO2);
    hot.write(event("SESSION_START", sid, null));
    for (int t = 1; t <= turns; t++) {
      String wo = "WO-" + sid.substring(4) + "-000" + t + "-01";
      ho2.write(event("WO_PLANNED", sid, wo));
      for (int r = 1; r <= 2; r++) {
        ho1.write(event("LLM_CALL", sid, wo));
        hot.write(event("EXCHANGE", sid, wo).toBuilder().idempotencyKey(wo + "/exchange/" + r).build());
      }
      ho1.write(event("WO_COMPLETED", sid, wo));
      ho2.write(event("WO_CHAIN_COMPLETE", sid, wo));
    }
    hot.write(event("SESSION_END", sid, null));
  }

  static LedgerEntry event(String type, String sid, String wo) {
    var meta = Json.object().put(LedgerKeys.SESSION_ID, sid).put("input_tokens", 100).put("output_tokens", 20);
    if (wo != null) {
      meta.put(LedgerKeys.WO_ID, wo);
    }
    return LedgerEntry.builder(type).submissionId("PRC-TEST-001").decision("OK").reason("test " + type)
        .metadata(meta).build();
  }
}

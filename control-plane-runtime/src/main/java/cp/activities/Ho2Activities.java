package cp.activities;

import cp.model.AttentionRequest;
import cp.model.AttentionResult;
import cp.model.Ho2Record;
import cp.model.Ho2RecordResult;
import io.temporal.activity.ActivityInterface;

/** HO2, the supervisor's I/O: its ledger (HO2m) and attention. It never reaches the gateway. */
@ActivityInterface(namePrefix = "Ho2")
public interface Ho2Activities {
  /** Writes HO2m events idempotently; computes the chain's trace hash when an event asks for it. */
  Ho2RecordResult record(Ho2Record record);

  /** Assembles context for a turn from HO2m, HO1m, the session's EXCHANGE records and HO3m. */
  AttentionResult attend(AttentionRequest request);
}

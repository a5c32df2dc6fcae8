package cp.cli;

import cp.worker.HistoryReplayer;
import cp.worker.TemporalConnection;
import cp.worker.TemporalOptions;
import cp.worker.codec.PayloadKey;
import cp.model.WorkOrderIds;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.temporal.common.WorkflowExecutionHistory;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** Replays recorded histories against this build's workflow code: exit 1 if any diverges. */
@Command(name = "replay", mixinStandardHelpOptions = true,
    description = "Replay a recorded history (a JSON file from 'temporal workflow show --output json' or"
        + " client.fetchHistory) or a live session's histories against the current code. Histories of workers"
        + " that encrypt payloads need the same CP_PAYLOAD_KEY.")
final class ReplayCommand extends CliCommand implements java.util.concurrent.Callable<Integer> {
  @Parameters(arity = "0..1", paramLabel = "FILE", description = "A history JSON file.")
  Path file;

  @Option(names = "--session", description = "Fetch the session's history and its turns' from TEMPORAL_ADDRESS.")
  String session;

  @Override
  public Integer call() throws Exception {
    if ((file == null) == (session == null)) {
      throw new IllegalArgumentException("give either a history FILE or --session SESSION_ID");
    }
    if (session != null) {
      checkSessionId("--session", session);
    }
    List<WorkflowExecutionHistory> histories = new ArrayList<>();
    if (file != null) {
      if (!Files.isReadable(file)) {
        throw new IllegalArgumentException("history file " + file + " does not exist or is not readable");
      }
      String json;
      try {
        json = Files.readString(file);
      } catch (CharacterCodingException e) {
        throw new IllegalArgumentException("history file " + file + " is not UTF-8 text (a binary file?); give a"
            + " JSON history from 'temporal workflow show --output json'");
      } catch (IOException e) {
        throw new IllegalArgumentException("history file " + file + " cannot be read: " + Cpctl.oneLine(e));
      }
      try {
        histories.add(WorkflowExecutionHistory.fromJson(json));
      } catch (RuntimeException e) {
        throw new IllegalArgumentException("history file " + file + " is not a Temporal history in JSON: "
            + Cpctl.oneLine(e));
      }
    } else {
      var cfg = config();
      CliPlane.requireSharedService(cfg, "replay --session");
      try (TemporalConnection conn = TemporalConnection.open(cfg)) {
        try {
          histories.add(conn.client().fetchHistory(session));
        } catch (StatusRuntimeException e) {
          if (e.getStatus().getCode() == Status.Code.NOT_FOUND) {
            throw new IllegalArgumentException("session " + session + " is not on the Temporal service at "
                + cfg.temporalAddress() + " (a dev server forgets its workflows when it stops; see 'cpctl sessions')");
          }
          throw e;
        }
        for (int n = 1; ; n++) {
          try {
            histories.add(conn.client().fetchHistory(WorkOrderIds.turnWorkflow(session, n)));
          } catch (RuntimeException e) {
            break;
          }
        }
      }
    }
    int bad = 0;
    // Histories written by workers with CP_PAYLOAD_KEY need the same key to replay.
    try (HistoryReplayer replayer = new HistoryReplayer(TemporalOptions.dataConverter(PayloadKey.fromEnv(env())))) {
      for (WorkflowExecutionHistory h : histories) {
        HistoryReplayer.Outcome o = replayer.replay(h);
        if (o.ok()) {
          out().printf("OK    %-28s %-16s %d events: deterministic%n", o.workflowId(), o.workflowType(),
              h.getEvents().size());
        } else {
          bad++;
          out().printf("FAIL  %-28s %-16s %s%n", o.workflowId(), o.workflowType(), o.problem());
          if (root().verbose) {
            out().println(o.detail());
          }
        }
      }
    }
    return bad == 0 ? Cpctl.OK : Cpctl.FAILED;
  }
}

package cp.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.stub.StreamObserver;
import io.temporal.api.workflowservice.v1.UpdateWorkflowExecutionRequest;
import io.temporal.api.workflowservice.v1.UpdateWorkflowExecutionResponse;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Issue 21: the threads a turn waits on belong to the client that started it (no static pool
 * shared by every client of the JVM) and end when it is closed; a closed client says so.
 */
class ClientThreadsTest {
  static final String SID = "SES-1a2b3c4d";

  /** A service that takes a turn's Update and never answers it, like a turn that runs for a long time. */
  static final class NeverAnswers extends FakeTemporalService.Service {
    final CountDownLatch updateArrived = new CountDownLatch(1);

    @Override
    public void updateWorkflowExecution(UpdateWorkflowExecutionRequest request,
        StreamObserver<UpdateWorkflowExecutionResponse> response) {
      updateArrived.countDown();
    }
  }

  private static List<Thread> waiterThreads() {
    return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals("cp-turn-wait") && t.isAlive())
        .toList();
  }

  @Test
  void close_endsTheThreadAWaitingTurnRunsOn_andTheTurnSaysTheClientClosed() throws Exception {
    NeverAnswers service = new NeverAnswers();
    try (FakeTemporalService fake = new FakeTemporalService(service)) {
      List<Thread> before = waiterThreads();
      ControlPlaneClient client = ControlPlaneClient.newBuilder(fake.client).build();
      AtomicReference<Throwable> failure = new AtomicReference<>();
      CompletableFuture<Void> turn = CompletableFuture.runAsync(() -> {
        try {
          client.turn(SID, "hello");
        } catch (RuntimeException e) {
          failure.set(e);
        }
      });
      assertTrue(service.updateArrived.await(10, TimeUnit.SECONDS), "the turn's Update reached the service");
      List<Thread> mine = waiterThreads().stream().filter(t -> !before.contains(t)).toList();
      assertEquals(1, mine.size(), "the turn waits on one thread of its own: " + mine);

      client.close();

      mine.get(0).join(TimeUnit.SECONDS.toMillis(10));
      assertFalse(mine.get(0).isAlive(), "closing the client ends the thread its turn waited on");
      turn.get(10, TimeUnit.SECONDS);
      ClientException e = assertThrows(ClientException.class, () -> { throw failure.get(); });
      assertEquals(ClientException.Kind.UNAVAILABLE, e.kind());
      assertTrue(e.getMessage().contains("client is closed"), e.getMessage());
    }
  }

  @Test
  void aClosedClient_refusesATurnAtOnce_withoutAskingTheService() throws Exception {
    NeverAnswers service = new NeverAnswers();
    try (FakeTemporalService fake = new FakeTemporalService(service)) {
      ControlPlaneClient client = ControlPlaneClient.newBuilder(fake.client).build();
      client.close();

      ClientException e = assertThrows(ClientException.class, () -> client.turn(SID, "hello"));

      assertEquals(ClientException.Kind.UNAVAILABLE, e.kind());
      assertTrue(e.getMessage().contains("client is closed"), e.getMessage());
      assertEquals(1, service.updateArrived.getCount(), "no Update was sent");
    }
  }

  @Test
  void twoClients_closingOne_leavesTheOthersTurnWaiting() throws Exception {
    NeverAnswers service = new NeverAnswers();
    try (FakeTemporalService fake = new FakeTemporalService(service)) {
      ControlPlaneClient closed = ControlPlaneClient.newBuilder(fake.client).build();
      ControlPlaneClient open = ControlPlaneClient.newBuilder(fake.client).build();
      List<Thread> before = waiterThreads();
      CompletableFuture<Void> turn = CompletableFuture.runAsync(() -> {
        try {
          open.turn(SID, "hello");
        } catch (RuntimeException e) {
          // Ended by the close below.
        }
      });
      assertTrue(service.updateArrived.await(10, TimeUnit.SECONDS));
      List<Thread> mine = waiterThreads().stream().filter(t -> !before.contains(t)).toList();

      closed.close();
      Thread.sleep(300);

      assertTrue(mine.stream().allMatch(Thread::isAlive), "the other client's waiting thread goes on");
      assertFalse(turn.isDone(), "the other client's turn still waits");
      open.close();
      turn.get(10, TimeUnit.SECONDS);
    }
  }
}

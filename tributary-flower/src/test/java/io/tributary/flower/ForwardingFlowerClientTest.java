package io.tributary.flower;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every operation of {@link FlowerClient}, read from the interface so that one added later is
 * checked too, reaches the delegate of a {@link ForwardingFlowerClient} that overrides nothing,
 * with its argument, and comes back with the delegate's answer or failure.
 */
class ForwardingFlowerClientTest {
  /** The argument each operation is called with, by its parameter's type. */
  private static final Map<Class<?>, Object> ARGUMENTS = Map.of(
      Map.class, Map.of("lr", Scalar.of(0.1)),
      FitIns.class, new FitIns(List.of(), Map.of("epochs", Scalar.of(2L))),
      EvaluateIns.class, new EvaluateIns(List.of(), Map.of("batch", Scalar.of(8L))));
  /** The delegate's answer to each operation, by its return type. */
  private static final Map<Class<?>, Object> ANSWERS = Map.of(
      Map.class, Map.of("os", Scalar.of("linux")),
      List.class, List.of(Tensor.ofDoubles(Shape.of(1), new double[] {0.5})),
      FitRes.class, new FitRes(List.of(), 3, Map.of()),
      EvaluateRes.class, new EvaluateRes(0.25f, 4, Map.of()));

  static Stream<Named<Method>> operations() {
    return Arrays.stream(FlowerClient.class.getMethods())
        .filter(m -> !Modifier.isStatic(m.getModifiers()))
        .map(m -> Named.of(m.getName(), m));
  }

  @ParameterizedTest
  @MethodSource("operations")
  void operation_nothingOverridden_delegateCalledWithTheArgumentAndItsAnswerOrFailureReturned(
      Method operation) throws Exception {
    List<List<Object>> calls = new ArrayList<>();
    FlowerClientException failure = new FlowerClientException("refused");
    FlowerClient delegate = (FlowerClient) Proxy.newProxyInstance(
        FlowerClient.class.getClassLoader(), new Class<?>[] {FlowerClient.class},
        (proxy, method, args) -> {
          calls.add(List.of(method, List.of(args)));
          if (calls.size() > 1) {
            throw failure;
          }
          return ANSWERS.get(method.getReturnType());
        });
    FlowerClient forwarding = new ForwardingFlowerClient(delegate) {};
    Object argument = ARGUMENTS.get(operation.getParameterTypes()[0]);

    Object answer = operation.invoke(forwarding, argument);
    Throwable thrown = catchThrowable(() -> operation.invoke(forwarding, argument));

    assertThat(answer).isNotNull().isSameAs(ANSWERS.get(operation.getReturnType()));
    assertThat(calls).containsExactly(List.of(operation, List.of(argument)),
        List.of(operation, List.of(argument)));
    assertThat(thrown).isInstanceOf(InvocationTargetException.class).cause().isSameAs(failure);
  }

  @Test
  void construct_nullDelegate_refusedNamingIt() {
    assertThatThrownBy(() -> new ForwardingFlowerClient(null) {})
        .isInstanceOf(NullPointerException.class).hasMessage("delegate");
  }
}

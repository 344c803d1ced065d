package io.tributary.runtime.executor.internal.local;

import io.tributary.core.compiler.JavaFunction;
import io.tributary.core.compiler.Lambda;
import io.tributary.core.types.Type;
import java.util.Objects;

/**
 * A function value that runs on one participant: a lambda with the local values it captured, a
 * Java function, or a local intrinsic ({@code sequence_*}, {@code generic_*}).
 */
public sealed interface LocalFn {
  /** How the function is named in failure reports, such as {@code java:client_update}. */
  String name();

  /** A lambda closed over the local values its body refers to. */
  record Closure(Lambda lambda, Env env) implements LocalFn {
    /** Checks that both parts are present. */
    public Closure {
      Objects.requireNonNull(lambda, "lambda");
      Objects.requireNonNull(env, "env");
    }

    @Override
    public String name() {
      String printed = lambda.toString();
      return printed.length() <= 60 ? printed : printed.substring(0, 57) + "...";
    }
  }

  /** A Java function with its declared type, checked on every result. */
  record Java(JavaFunction function) implements LocalFn {
    @Override
    public String name() {
      return "java:" + function.name();
    }
  }

  /** A local intrinsic used as a function value, at its concrete type. */
  record Intrinsic(String uri, Type type) implements LocalFn {
    @Override
    public String name() {
      return uri;
    }
  }
}

package io.tributary.cli;

import io.tributary.flower.app.ClientApp;
import io.tributary.flower.app.ClientAppProvider;
import java.io.File;
import java.lang.reflect.InvocationTargetException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

/**
 * A user's ClientApp for {@code supernode --app CLASS [--classpath JARS]}: the named class, or
 * the one {@link ClientAppProvider} that {@link ServiceLoader} finds on the class path. Every
 * failure is an {@link IllegalArgumentException} with one line naming the flag.
 */
final class UserApps {
  private UserApps() {}

  /** The app, a description of where it came from, and the class loader it came from. */
  record Loaded(ClientApp app, String description, ClassLoader loader) {}

  static Loaded load(String className, String classpath) {
    ClassLoader loader = loader(classpath);
    ClientAppProvider provider;
    String name;
    if (className != null) {
      name = className;
      Class<?> c;
      try {
        c = Class.forName(className, true, loader);
      } catch (ClassNotFoundException | LinkageError e) {
        throw new IllegalArgumentException("--app: no loadable class " + clip(className)
            + " on the class path" + (classpath == null ? " (add its jar with --classpath)" : ""));
      }
      if (!ClientAppProvider.class.isAssignableFrom(c)) {
        throw new IllegalArgumentException("--app: " + clip(className) + " does not implement "
            + ClientAppProvider.class.getName());
      }
      try {
        provider = (ClientAppProvider) c.getConstructor().newInstance();
      } catch (NoSuchMethodException e) {
        throw new IllegalArgumentException("--app: " + clip(className)
            + " has no public no-argument constructor");
      } catch (InvocationTargetException e) {
        throw new IllegalArgumentException("--app: creating " + clip(className) + " failed: "
            + e.getCause());
      } catch (ReflectiveOperationException e) {
        throw new IllegalArgumentException("--app: cannot create " + clip(className) + ": " + e);
      }
    } else {
      List<ClientAppProvider> found = new ArrayList<>();
      try {
        ServiceLoader.load(ClientAppProvider.class, loader).forEach(found::add);
      } catch (java.util.ServiceConfigurationError e) {
        throw new IllegalArgumentException("--classpath: a ClientAppProvider does not load: "
            + e.getMessage());
      }
      if (found.size() != 1) {
        throw new IllegalArgumentException("--classpath: " + (found.isEmpty()
            ? "no ClientAppProvider registered in META-INF/services"
            : found.size() + " ClientAppProviders (" + found.stream()
                .map(p -> p.getClass().getName()).toList() + "); choose one with --app"));
      }
      provider = found.getFirst();
      name = provider.getClass().getName();
    }
    ClientApp app;
    try {
      app = provider.clientApp();
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("--app: " + clip(name) + ".clientApp() failed: " + e);
    }
    if (app == null) {
      throw new IllegalArgumentException("--app: " + clip(name) + ".clientApp() returned null");
    }
    return new Loaded(app, "ClientApp " + name + " handling " + app.messageTypes(), loader);
  }

  /** The CLI's class loader, or one over it that adds {@code --classpath}'s jars and folders. */
  static ClassLoader loader(String classpath) {
    ClassLoader parent = UserApps.class.getClassLoader();
    if (classpath == null) {
      return parent;
    }
    List<URL> urls = new ArrayList<>();
    for (String entry : classpath.split(File.pathSeparator)) {
      if (entry.isBlank()) {
        continue;
      }
      Path p = Path.of(entry);
      if (!Files.isRegularFile(p) && !Files.isDirectory(p)) {
        throw new IllegalArgumentException("--classpath: " + clip(entry)
            + " is not a jar or folder");
      }
      try {
        urls.add(p.toUri().toURL());
      } catch (MalformedURLException e) {
        throw new IllegalArgumentException("--classpath: " + clip(entry) + ": " + e.getMessage());
      }
    }
    return new URLClassLoader(urls.toArray(URL[]::new), parent);
  }

  private static String clip(String s) {
    return s.length() > 100 ? s.substring(0, 100) + "..." : s;
  }
}

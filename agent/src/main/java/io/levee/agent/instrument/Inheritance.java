package io.levee.agent.instrument;

import java.lang.ref.WeakReference;
import java.util.Map;

/**
 * Target APIs that an application class has only through a subclass: sqlite-jdbc's {@code
 * JDBC3Statement} holds every {@code execute} while only its subclass {@code JDBC4Statement}
 * declares {@code java.sql.Statement}; Tomcat JDBC's {@code DataSourceProxy} holds {@code
 * getConnection} while only its subclass {@code DataSource} declares {@code javax.sql.DataSource}.
 * Woven by their own ancestry those methods would never be, and every call through them would go
 * undecided.
 *
 * <p>How it is known without loading or reading anything: the JVM loads a class's superclass right
 * after it has handed the class itself to the transformer, on the same thread. So when a class that
 * declares a target API of the JDK's (or inherits one this way) is handed over, its superclass is
 * noted on the thread; when that superclass comes next it takes those APIs, and passes them on to
 * its own superclass in turn. Only APIs a class names among its own interfaces are passed on (an
 * application interface that extends a target API is not followed: that would mean reading its
 * class file for every class loaded). A superclass loaded before any of its target subclasses (by
 * another subclass) does not get them this way.
 *
 * <p>What was learnt is kept per class loader, so a retransformation (attach, detach) weaves the
 * same methods again; an attach learns it from the loaded classes instead ({@link #learn}).
 *
 * <p>Concurrency: as {@link MasksByLoader}; the notes on a thread are that thread's own.
 */
final class Inheritance {
  static final Inheritance SHARED = new Inheritance();

  /** Superclasses noted per thread: enough for the interfaces the JVM loads in between. */
  private static final int NOTES = 4;

  private static final int MAX_TYPES = 10000;

  private final MasksByLoader byLoader = new MasksByLoader(MAX_TYPES);
  private final ThreadLocal<Note[]> notes = new ThreadLocal<Note[]>();

  /**
   * A superclass (internal name) the JVM is about to load for a subclass, and the APIs it inherits.
   */
  private static final class Note {
    final WeakReference<ClassLoader> loader;
    final String superName;
    final int apis;

    Note(ClassLoader loader, String superName, int apis) {
      this.loader = new WeakReference<ClassLoader>(loader);
      this.superName = superName;
      this.apis = apis;
    }
  }

  /**
   * The APIs class {@code internalName} of {@code loader} has through the subclass this thread
   * defined just before, if that one noted it; 0 for almost every class. Cheap enough for every
   * class the JVM loads: a thread-local read. What is found is kept for {@link #learnt}.
   */
  int noted(ClassLoader loader, String internalName) {
    Note[] mine = notes.get();
    for (int i = 0; mine != null && i < mine.length; i++) {
      Note note = mine[i];
      if (note != null && note.superName.equals(internalName) && note.loader.get() == loader) {
        mine[i] = null;
        Map<String, Integer> known = byLoader.of(loader);
        Integer before = known.get(internalName);
        byLoader.put(known, internalName, before == null ? note.apis : before | note.apis);
        return note.apis;
      }
    }
    return 0;
  }

  /**
   * The APIs class {@code internalName} of {@code loader} was found to have through its subclasses.
   */
  int learnt(ClassLoader loader, String internalName) {
    Integer apis = byLoader.of(loader).get(internalName);
    return apis == null ? 0 : apis;
  }

  /**
   * Notes, for the superclass of the class {@code header} describes, the target APIs that class
   * declares among its interfaces or has through its own subclasses ({@code inherited}).
   */
  void defining(ClassLoader loader, ClassHeader header, int inherited) {
    if (header.isInterface || header.superName == null) {
      return;
    }
    int apis = inherited;
    for (String i : header.interfaces) {
      apis |= JdkTypes.mask(i);
    }
    // Table look-ups first: nearly every class stops here, before the package test's substring.
    if (apis == 0 || JdkTypes.isJdk(header.superName)) {
      return;
    }
    Note[] mine = notes.get();
    if (mine == null) {
      mine = new Note[NOTES];
      notes.set(mine);
    }
    System.arraycopy(mine, 0, mine, 1, NOTES - 1);
    mine[0] = new Note(loader, header.superName.replace('.', '/'), apis);
  }

  /** An attach: {@code type}'s loaded subclasses reach {@code apis} that it does not. */
  void learn(Class<?> type, int apis) {
    Map<String, Integer> known = byLoader.of(type.getClassLoader());
    String internalName = type.getName().replace('.', '/');
    Integer before = known.get(internalName);
    byLoader.put(known, internalName, before == null ? apis : before | apis);
  }
}

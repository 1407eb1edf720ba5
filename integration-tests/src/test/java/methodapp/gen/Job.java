package methodapp.gen;

/** The interface of the classes {@code methodapp.Jobs} generates at run time, as many as asked. */
public interface Job {
  String work(String input);
}

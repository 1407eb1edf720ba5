package methodapp;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import methodapp.shop.AuditLog;
import methodapp.shop.Catalog;
import methodapp.shop.CheapQuotes;
import methodapp.shop.Courier;
import methodapp.shop.DiscountInventory;
import methodapp.shop.FastQuotes;
import methodapp.shop.Inventory;
import methodapp.shop.Ledger;
import methodapp.shop.LedgerBook;
import methodapp.shop.Partner;
import methodapp.shop.Prices;
import methodapp.shop.Quotes;
import methodapp.shop.Warehouse;
import methodapp.spring.PricingConfig;
import methodapp.spring.PricingService;
import org.springframework.aop.framework.Advised;
import org.springframework.aop.scope.ScopedObject;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.core.SpringVersion;

/**
 * What the application calls, by name: each target is one call of a service method, as the
 * application's own code would make it. The services are made at start-up, except {@code
 * LateService} and {@code LaterService}, which are loaded by name on their first use.
 */
final class Targets {
  /** One call of a service method. */
  interface Call {
    Object call(String argument) throws Exception;
  }

  private final Map<String, Call> calls = new LinkedHashMap<>();
  private final Map<String, Object> services = new LinkedHashMap<>();
  private final Map<String, Object> loaded = new ConcurrentHashMap<>();

  Targets() {
    Inventory inventory = new Inventory();
    Inventory discount = new DiscountInventory();
    Warehouse warehouse = new Warehouse();
    Quotes fast = new FastQuotes();
    Quotes cheap = new CheapQuotes();
    LedgerBook book = new LedgerBook();
    Ledger ledger =
        (Ledger)
            Proxy.newProxyInstance(
                Ledger.class.getClassLoader(), new Class<?>[] {Ledger.class}, forwardTo(book));
    Partner partner = new Partner();
    Courier courier = new Courier();
    AuditLog audit = new AuditLog();
    AnnotationConfigApplicationContext spring =
        new AnnotationConfigApplicationContext(PricingConfig.class);
    PricingService pricing = spring.getBean(PricingService.class);

    add("inventory", inventory, inventory::reserve);
    add("inventory-stock", inventory, inventory::stock);
    add("inventory-discount", discount, discount::reserve);
    add("warehouse", warehouse, warehouse::ship);
    add("warehouse-count", warehouse, a -> warehouse.count());
    add("quotes-fast", fast, fast::quote);
    add("quotes-cheap", cheap, cheap::quote);
    add("ledger", ledger, ledger::post);
    add("ledger-book", book, book::post);
    add("ledger-audit", book, a -> book.audit());
    add("partner", partner, partner::call);
    add("courier-send", courier, courier::send);
    add("courier-track", courier, courier::track);
    add("courier-deliver", courier, courier::deliver);
    Catalog catalog = new Catalog();
    add("catalog-list", catalog, catalog::list);
    calls.put("catalog-find", Catalog::find);
    calls.put("prices-lookup", Prices::lookup);
    add("audit", audit, audit::record);
    add("pricing", pricing, pricing::price);
    add("pricing-target", ((ScopedObject) pricing).getTargetObject(), null);
    calls.put("pricing-scoped", a -> ((ScopedObject) pricing).getTargetObject().getClass());
    calls.put("pricing-advised", a -> ((Advised) pricing).getTargetSource().getTargetClass());
    calls.put("pricing-string", a -> pricing.toString());
    calls.put("late", a -> byName("methodapp.late.LateService", a));
    calls.put("later", a -> byName("methodapp.late.LaterService", a));
  }

  Call get(String name) {
    Call call = calls.get(name);
    if (call == null) {
      throw new IllegalArgumentException("no target " + name + "; targets: " + calls.keySet());
    }
    return call;
  }

  /**
   * The class each service really has (a proxy's generated class), and which were loaded by name.
   */
  Map<String, String> classes() {
    Map<String, String> names = new LinkedHashMap<>();
    services.forEach((name, service) -> names.put(name, service.getClass().getName()));
    names.put(
        "ledger.isProxy", String.valueOf(Proxy.isProxyClass(services.get("ledger").getClass())));
    names.put("late.loaded", String.valueOf(loaded.containsKey("methodapp.late.LateService")));
    names.put("later.loaded", String.valueOf(loaded.containsKey("methodapp.late.LaterService")));
    names.put("spring", SpringVersion.getVersion());
    return names;
  }

  private void add(String name, Object service, Call call) {
    services.put(name, service);
    if (call != null) {
      calls.put(name, call);
    }
  }

  /** {@code work} of a service that the application loads by name on its first use. */
  private Object byName(String className, String argument) throws Exception {
    Object service =
        loaded.computeIfAbsent(
            className,
            name -> {
              try {
                return Class.forName(name).getConstructor().newInstance();
              } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
              }
            });
    try {
      return service.getClass().getMethod("work", String.class).invoke(service, argument);
    } catch (InvocationTargetException e) {
      throw rethrow(e.getCause());
    }
  }

  private static InvocationHandler forwardTo(Object target) {
    return (proxy, method, args) -> {
      if (method.getDeclaringClass() == Object.class) {
        return method.invoke(target, args);
      }
      return invoke(target, method, args);
    };
  }

  private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  private static Exception rethrow(Throwable t) {
    if (t instanceof Exception) {
      return (Exception) t;
    }
    throw (Error) t;
  }
}

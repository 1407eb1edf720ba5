package methodapp.spring;

import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.Configuration;

/** Finds {@link PricingService} by scanning, as an application's configuration does. */
@Configuration
@ComponentScan(basePackageClasses = PricingConfig.class)
public class PricingConfig {}

package dev.proofline.daemon;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * The system's headless Chromium under its chromedriver, for the dashboard tests: {@code chromium} and
 * {@code chromedriver} (the Debian packages {@code chromium} and {@code chromium-driver}; other paths
 * with {@code -Dproofline.chromium=} and {@code -Dproofline.chromedriver=}).
 */
public final class HeadlessChromium {

    static final Path CHROMIUM = Path.of(System.getProperty("proofline.chromium", "/usr/bin/chromium"));
    static final Path CHROMEDRIVER = Path.of(System.getProperty("proofline.chromedriver", "/usr/bin/chromedriver"));
    /** Kept so the level set on it holds (loggers are weakly referenced). */
    private static final Logger SELENIUM_LOG = Logger.getLogger("org.openqa.selenium");

    private HeadlessChromium() {
    }

    public static boolean installed() {
        return Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
    }

    /** Why a test that needs the browser is skipped. */
    public static String missing() {
        return "skipped: the dashboard test needs " + CHROMIUM + " and " + CHROMEDRIVER
                + " (the chromium and chromium-driver packages)";
    }

    public static WebDriver start() {
        SELENIUM_LOG.setLevel(Level.SEVERE);
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=1440,1800", "--force-device-scale-factor=1", "--hide-scrollbars",
                "--no-first-run", "--disable-extensions");
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort().build();
        return new ChromeDriver(service, options);
    }
}

#!/usr/bin/env python3
"""Takes the README's kiosk screenshots: the start screen of a survey in two languages and a
question, on a tablet-sized window (820 x 1180), with the debug build and Debian's Chromium.

    .venv-e2e/bin/python scripts/kiosk-screenshots.py      # writes docs/kiosk-*.png
"""
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "Tests" / "e2e"))

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from e2e_support import CHROMEDRIVER, CHROMIUM, EXAMPLES_DIR, Server  # noqa: E402

PIN = "246810"


def main():
    server = Server(EXAMPLES_DIR, Path(tempfile.mkdtemp()), extra=("--kiosk-pin", PIN)).start()
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=820,1180", "--hide-scrollbars"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    try:
        driver.get(f"{server.url}/kiosk/fever-triage")
        box = driver.find_element(By.ID, "pin")
        box.send_keys(PIN)
        box.submit()
        WebDriverWait(driver, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".button--start"))
        driver.save_screenshot(str(ROOT / "docs" / "kiosk-start.png"))
        driver.find_element(By.CSS_SELECTOR, ".button--start[value='es']").click()
        WebDriverWait(driver, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "button[value='next']"))
        driver.find_element(By.CSS_SELECTOR, "button[value='next']").click()
        WebDriverWait(driver, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".radios__input"))
        driver.save_screenshot(str(ROOT / "docs" / "kiosk-question.png"))
    finally:
        driver.quit()
        server.stop()


if __name__ == "__main__":
    main()

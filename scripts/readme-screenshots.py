#!/usr/bin/env python3
"""Takes the screenshots of docs/kiosk.md and docs/preview.md with the debug build and Debian's
Chromium: the kiosk's start screen in two languages and a question, on a tablet-sized window (820 x 1180), and the
researcher's preview of a step deep in a branching survey (1280 x 900).

    .venv-e2e/bin/python scripts/readme-screenshots.py      # writes docs/*.png
"""
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "Tests" / "e2e"))

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from e2e_support import BINARY, CHROMEDRIVER, CHROMIUM, EXAMPLES_DIR, PUBLIC, TEMPLATES, Server, free_port  # noqa: E402

PIN = "246810"


def preview_screenshot():
    port = free_port()
    process = subprocess.Popen([str(BINARY), "preview", str(EXAMPLES_DIR), "--port", str(port), "--templates", str(TEMPLATES),
                                "--public", str(PUBLIC)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            urllib.request.urlopen(url + "/preview", timeout=1).close()
            break
        except OSError:
            time.sleep(0.1)
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,1000", "--hide-scrollbars"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    try:
        driver.get(url + "/preview/fever-triage/steps/danger-signs")
        WebDriverWait(driver, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".preview-panel"))
        driver.save_screenshot(str(ROOT / "docs" / "preview-step.png"))
        driver.get(url + "/preview/fever-triage")
        driver.save_screenshot(str(ROOT / "docs" / "preview-map.png"))
    finally:
        driver.quit()
        process.terminate()


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
    preview_screenshot()

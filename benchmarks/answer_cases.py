# ruff: noqa: E501 (the cases are whole sentences and passages)
"""Hand-written answers with numbers, quantities and dates: whole answers through the engine.

Run: ``.venv/bin/python -m benchmarks.hard_cases --set answers``. Each case is (part, topic,
passages, sentences); a passage is the source ``[n]`` by its place (1 first), a sentence is
(the answer's sentence with its markers, whether a careful reader calls it supported by what it
cites, a note saying what the source says where it is not). An item's answer is its sentences
joined by a space, attributed against all its passages at once, as a user's answer is.

- ``review 3`` (60 answers, 264 sentences): written by a reviewing helper on 2026-11-29 apart
  from the engine's code, and run through the engine then (docs/benchmarks.md, "Numbers,
  quantities and dates in other forms"); the rules of "Plain numbers, months and round figures
  in whole answers" were then fixed against it.
- ``review 4`` (60 answers, 275 sentences): written by another helper the same day, apart from
  the engine and without seeing its results, and run once on the code before and once after
  those rules (the held-out figure, docs/benchmarks.md); its misses were read after that, and
  three small fixes followed from them, so it is no longer unseen.

Nothing in the engine or its training was fitted on them but the rules named above.
"""

from __future__ import annotations

__all__ = ["ANSWER_CASES"]

ANSWER_CASES: list[tuple[str, str, tuple[str, ...], tuple[tuple[str, bool, str], ...]]] = [
    (
        "review 3",
        "football",
        (
            "Manchester City beat Brentford 3-1 at the Etihad Stadium on Saturday, 14 October 2023. Erling Haaland scored twice, taking his league tally to 11 goals in 9 matches. The attendance was 53,212. City now sit two points clear at the top of the table with 24 points.",
            "Brentford manager Thomas Frank said his side were 'brave for 60 minutes'. The Bees have won only 2 of their last 8 away games and sit 12th with 10 points. Their next match is at home to Burnley on 21 October.",
        ),
        (
            ("Manchester City beat Brentford 3–1 on 14 October 2023 [1].", True, ""),
            (
                "Erling Haaland scored two of the goals, bringing him to 11 league goals in nine games [1].",
                True,
                "",
            ),
            ("More than 53,000 fans attended the match [1].", True, ""),
            ("The win left City three points clear at the top [1].", False, "two points"),
            ("Brentford sit 12th on 10 points [2].", True, ""),
            ("Haaland now has 12 league goals this season [1].", False, "extra"),
        ),
    ),
    (
        "review 3",
        "apple earnings",
        (
            "Apple today announced financial results for its fiscal 2023 fourth quarter ended September 30, 2023. The Company posted quarterly revenue of $89.5 billion, down 1 percent year over year, and quarterly earnings per diluted share of $1.46, up 13 percent year over year. Services revenue reached an all-time high of $22.3 billion. iPhone revenue was $43.8 billion.",
            "A year earlier, in the fourth quarter of fiscal 2022, Apple had reported revenue of $90.1 billion and diluted EPS of $1.29. iPhone revenue in that quarter was $42.6 billion.",
        ),
        (
            (
                "Apple's fiscal Q4 2023 revenue came to roughly $89.5 billion, a 1% decline from a year earlier [1].",
                True,
                "",
            ),
            ("Diluted earnings per share rose 13% to $1.46 [1][2].", True, ""),
            ("Services set a record at about $22 billion [1].", True, ""),
            ("iPhone sales contributed $48.3 billion [1].", False, "43.8"),
            ("Services revenue reached an all-time high of $23.3 billion [1].", False, "extra"),
        ),
    ),
    (
        "review 3",
        "pixel 8",
        (
            "The Pixel 8 has a 6.2-inch Actua display with a refresh rate of up to 120Hz. It weighs 187 g and its battery is rated at 4,575 mAh typical. Wired charging tops out at 27W, while wireless charging reaches 18W on the Pixel Stand (2nd gen) and 12W on Qi-certified chargers.",
        ),
        (
            (
                "The Pixel 8 features a 6.2-inch screen that refreshes at up to 120 Hz [1].",
                True,
                "",
            ),
            ("It weighs 187 grams [1].", True, ""),
            ("Its battery capacity is about 4,600 mAh [1].", True, ""),
            ("Wired charging is limited to 30W [1].", False, "27W"),
            ("Wireless charging reaches 15W on the Pixel Stand [1].", False, "extra"),
        ),
    ),
    (
        "review 3",
        "eurostar",
        (
            "The Eurostar from London St Pancras to Paris Gare du Nord takes 2 hours 16 minutes on the fastest services. The route is about 495 km long, of which 50.5 km run through the Channel Tunnel. Trains run up to 18 times a day, with the first departure at 06:01 and the last at 20:31.",
        ),
        (
            (
                "The fastest Eurostar trains cover London to Paris in about two and a quarter hours [1].",
                True,
                "",
            ),
            ("The line is roughly 500 km long [1].", True, ""),
            ("About 50 km of the route runs under the Channel [1].", True, ""),
            ("There are up to 20 departures a day [1].", False, "18"),
            ("The first train leaves just after 6am [1].", True, ""),
        ),
    ),
    (
        "review 3",
        "paracetamol",
        (
            "For adults and children aged 16 and over, the usual dose of paracetamol is one or two 500mg tablets up to 4 times in 24 hours. Always leave at least 4 hours between doses. Do not take more than 8 tablets (4 grams) in 24 hours. For children aged 10 to 15, the dose is one 500mg tablet.",
        ),
        (
            (
                "Adults can take one or two 500 mg tablets per dose, up to four times a day [1].",
                True,
                "",
            ),
            ("You should wait at least four hours between doses [1].", True, ""),
            ("The maximum is 4,000 mg in a 24-hour period [1].", True, ""),
            ("These adult doses apply from age 12 upward [1].", False, "16"),
            ("Children aged 10 to 15 can take two 500 mg tablets [1].", False, "extra"),
        ),
    ),
    (
        "review 3",
        "banana bread",
        (
            "Classic banana bread. Ingredients: 3 ripe bananas, 75 g melted butter, 150 g sugar, 1 egg, 1 tsp vanilla, 1 tsp baking soda, a pinch of salt, 190 g plain flour. Preheat the oven to 175°C (350°F). Bake for 60 to 65 minutes, until a skewer comes out clean. Makes one 9x5-inch loaf, about 10 slices.",
        ),
        (
            ("You'll need three ripe bananas and 190 g of flour [1].", True, ""),
            ("Bake it at 350°F for about an hour [1].", True, ""),
            (
                "The recipe calls for 150 g of melted butter [1].",
                False,
                "75 g butter; 150 g is sugar",
            ),
            ("One loaf gives around 10 slices [1].", True, ""),
        ),
    ),
    (
        "review 3",
        "berlin wall",
        (
            "The Berlin Wall fell on the night of 9 November 1989, when East German authorities opened the border crossings. Construction of the wall had begun on 13 August 1961. The wall was about 155 kilometres long, and at least 140 people were killed at it. German reunification followed on 3 October 1990.",
        ),
        (
            ("The Berlin Wall came down on 9 Nov. 1989 [1].", True, ""),
            ("Its construction started in August 1961 [1].", True, ""),
            (
                "The wall stretched for roughly 155 km, and at least 140 people died there [1].",
                True,
                "",
            ),
            ("Germany was reunified on October 3, 1991 [1].", False, "1990"),
        ),
    ),
    (
        "review 3",
        "forecast",
        (
            "Forecast for Tuesday: Sunny spells with a high of 24°C (75°F) and a low of 13°C overnight. Winds from the southwest at 15-20 km/h. Chance of rain 10%. UV index 6 (high). Sunrise 06:12, sunset 20:47.",
        ),
        (
            ("Tuesday should reach a high of around 75°F [1].", True, ""),
            ("Overnight it will drop to 13 degrees [1].", True, ""),
            ("The chance of rain is low, at 10% [1].", True, ""),
            ("Winds will blow from the southwest at 25 to 30 km/h [1].", False, "15-20"),
            ("The sun sets at 8:47 pm [1].", True, ""),
            ("The UV index will be 8 [1].", False, "extra"),
        ),
    ),
    (
        "review 3",
        "python 3.12",
        (
            "Python 3.12.0 — Release date: 2023-10-02. This is the first release with the per-interpreter GIL (PEP 684). Python 3.12 will receive bugfix updates approximately every two months for about 18 months, followed by security fixes until October 2028. The previous version, Python 3.11, was released on 2022-10-24.",
        ),
        (
            ("Python 3.12.0 came out on 2 October 2023 [1].", True, ""),
            (
                "Bugfix releases will come roughly every two months for a year and a half [1].",
                True,
                "",
            ),
            ("Security support runs until October 2028 [1].", True, ""),
            ("Python 3.11 had been released on 24 October 2021 [1].", False, "2022"),
        ),
    ),
    (
        "review 3",
        "museum hours",
        (
            "Opening hours: Monday to Friday 09:00–17:30; Saturday 10:00–16:00; Sunday closed. Last entry is 45 minutes before closing. Admission: adults £18, children (5–15) £9, under-5s free.",
        ),
        (
            ("The museum is open on weekdays from 9am to 5:30pm [1].", True, ""),
            ("On Saturdays it opens at 10am and closes at 4pm [1].", True, ""),
            ("Last entry is 30 minutes before closing [1].", False, "45"),
            ("Adult tickets cost £18, and children aged 5 to 15 pay half that [1].", True, ""),
        ),
    ),
    (
        "review 3",
        "manchester",
        (
            "According to the 2021 census, the population of Greater Manchester was 2,867,800, an increase of 5.6% on 2011. The city of Manchester itself had 551,938 residents, up 9.7%. The median age in the city was 31, compared with 40 for England as a whole.",
        ),
        (
            ("Greater Manchester had nearly 2.9 million people in 2021 [1].", True, ""),
            ("That was up about 5.6% from 2011 [1].", True, ""),
            ("The city of Manchester had around 552,000 residents [1].", True, ""),
            ("Its median age was 34 [1].", False, "31"),
            ("The city of Manchester's population grew by 7.9% [1].", False, "extra"),
        ),
    ),
    (
        "review 3",
        "uk 2019",
        (
            "In the 2019 UK general election, the Conservative Party won 365 of the 650 seats in the House of Commons, a majority of 80. The party received 43.6% of the vote. Labour won 202 seats with 32.1% of the vote. Turnout was 67.3%.",
        ),
        (
            ("The Conservatives won 365 seats, giving them an 80-seat majority [1].", True, ""),
            ("They took about 44% of the vote [1].", True, ""),
            ("Labour finished with 203 seats [1].", False, "202"),
            ("Around two thirds of voters turned out [1].", True, ""),
            ("Turnout was 69.3% [1].", False, "extra"),
        ),
    ),
    (
        "review 3",
        "marathon",
        (
            "Kelvin Kiptum set the men's marathon world record of 2:00:35 at the Chicago Marathon on 8 October 2023, breaking Eliud Kipchoge's mark of 2:01:09 by 34 seconds. Kiptum was 23 years old at the time. He died in a road accident in February 2024.",
        ),
        (
            (
                "Kelvin Kiptum ran a world-record 2:00:35 in Chicago on October 8, 2023 [1].",
                True,
                "",
            ),
            ("He beat Kipchoge's previous record by more than half a minute [1].", True, ""),
            ("He was 24 when he set the record [1].", False, "23"),
        ),
    ),
    (
        "review 3",
        "tesla",
        (
            "Tesla delivered 1,808,581 vehicles in 2023, up 38% from 1,313,851 in 2022. Production totalled 1,845,985 vehicles. In the fourth quarter alone, the company delivered 484,507 cars and produced 494,989.",
        ),
        (
            ("Tesla delivered about 1.81 million vehicles in 2023 [1].", True, ""),
            ("That was a 38% increase over the previous year [1].", True, ""),
            ("Q4 deliveries were roughly 485,000 [1].", True, ""),
            ("It produced just over 1.9 million cars in the year [1].", False, "1.846m"),
            ("In the fourth quarter Tesla produced about 505,000 cars [1].", False, "extra"),
        ),
    ),
    (
        "review 3",
        "macbook air",
        (
            "MacBook Air 13-inch (M3). Display: 13.6-inch Liquid Retina, 2560 by 1664 resolution, 500 nits brightness. Weight: 1.24 kg (2.7 pounds). Battery: up to 18 hours Apple TV app movie playback; up to 15 hours wireless web. Height: 1.13 cm (0.44 inch).",
        ),
        (
            ("The 13-inch MacBook Air with M3 weighs 2.7 lb [1].", True, ""),
            ("Its screen reaches 500 nits [1].", True, ""),
            (
                "Apple rates it for up to 18 hours of wireless web browsing [1].",
                False,
                "15 h web; 18 h movies",
            ),
            ("It is just over 1.1 cm thick [1].", True, ""),
        ),
    ),
    (
        "review 3",
        "jfk-lhr",
        (
            "The flight from New York JFK to London Heathrow covers approximately 3,451 miles (5,554 km). Typical flight time eastbound is around 7 hours, while the westbound return takes about 8 hours because of prevailing winds. London is 5 hours ahead of New York. Airlines recommend arriving 180 minutes before an international departure.",
        ),
        (
            ("JFK to Heathrow is about 5,550 kilometres [1].", True, ""),
            ("Eastbound flights take roughly seven hours [1].", True, ""),
            (
                "The return flight is shorter, at about six and a half hours [1].",
                False,
                "about 8 hours",
            ),
            ("Airlines suggest arriving three hours before an international flight [1].", True, ""),
        ),
    ),
    (
        "review 3",
        "ibuprofen",
        (
            "Children's ibuprofen 100mg/5ml oral suspension. Dosage: Children 6-11 months: 2.5ml three times in 24 hours. Children 1-3 years: 5ml three times in 24 hours. Children 4-6 years: 7.5ml three times in 24 hours. Do not give to babies under 3 months or weighing under 5kg. Do not give for more than 3 days without speaking to a doctor.",
        ),
        (
            ("For a child aged 1 to 3, the dose is 5 ml three times in 24 hours [1].", True, ""),
            ("Children aged 4 to 6 can have 10 ml per dose [1].", False, "7.5 ml"),
            ("It should not be given to babies younger than three months [1].", True, ""),
            ("Don't use it for longer than three days without asking a doctor [1].", True, ""),
        ),
    ),
    (
        "review 3",
        "rice",
        (
            "To cook basmati rice on the stove, rinse 1 cup (200 g) of rice until the water runs clear. Add 1½ cups (360 ml) of water and ½ teaspoon of salt. Bring to a boil, then cover and simmer on low for 15 minutes. Let it rest off the heat for 10 minutes before fluffing. Serves 3-4.",
        ),
        (
            ("Use one and a half cups of water per cup of rice [1].", True, ""),
            ("Simmer it covered on low for a quarter of an hour [1].", True, ""),
            ("Then let it rest off the heat for 5 minutes [1].", False, "10"),
            ("This serves three to four people [1].", True, ""),
        ),
    ),
    (
        "review 3",
        "apollo 11",
        (
            "Apollo 11 launched from Kennedy Space Center on July 16, 1969, at 13:32 UTC. The lunar module Eagle landed on the Moon on July 20 at 20:17 UTC. Neil Armstrong and Buzz Aldrin spent about 21.5 hours on the lunar surface, including 2 hours 31 minutes outside the module. The crew returned to Earth on July 24, 1969.",
        ),
        (
            ("Apollo 11 lifted off on 16 July 1969 [1].", True, ""),
            ("The Eagle landed on July 20 at 8:17 pm UTC [1].", True, ""),
            (
                "Armstrong and Aldrin spent roughly 21 and a half hours on the surface [1].",
                True,
                "",
            ),
            ("Their moonwalk lasted about two and a half hours [1].", True, ""),
            ("The crew returned to Earth on July 25, 1969 [1].", False, "24"),
        ),
    ),
    (
        "review 3",
        "lisbon",
        (
            "Climate of Lisbon. The average high in August is 28 °C and the average low is 18 °C. Lisbon gets around 2,800 hours of sunshine a year. Annual rainfall averages 774 mm, most of it between October and April. January is the wettest month, with about 100 mm.",
        ),
        (
            ("In August, Lisbon averages highs of 28°C [1].", True, ""),
            ("The city sees about 2,800 hours of sunshine a year [1].", True, ""),
            ("Annual rainfall averages roughly 800 mm [1].", True, ""),
            ("January is the wettest month, with around 150 mm [1].", False, "100"),
            ("The average low in August is 16 °C [1].", False, "extra"),
        ),
    ),
    (
        "review 3",
        "node 20",
        (
            "Node.js release schedule. v20 | Status: Maintenance LTS | Initial release: 2023-04-18 | Active LTS start: 2023-10-24 | Maintenance start: 2024-10-22 | End-of-life: 2026-04-30. Node.js 20 ships with V8 11.3.",
        ),
        (
            ("Node.js 20 was first released on April 18, 2023 [1].", True, ""),
            ("It entered Active LTS on 24 October 2023 [1].", True, ""),
            ("It reaches end-of-life on 30 April 2025 [1].", False, "2026"),
            ("It ships with V8 11.3 [1].", True, ""),
        ),
    ),
    (
        "review 3",
        "store hours",
        (
            "Store hours: Mon–Sat 7am–10pm, Sun 10am–4pm. Pharmacy: Mon–Fri 8:30am–7pm, Sat 9am–5pm, closed Sunday. Bank holidays: 9am–6pm.",
        ),
        (
            ("The store is open 07:00 to 22:00 Monday through Saturday [1].", True, ""),
            ("On Sundays it opens from 10:00 to 16:00 [1].", True, ""),
            ("The pharmacy closes at 6pm on weekdays [1].", False, "7pm"),
            ("On bank holidays the hours are 9am to 6pm [1].", True, ""),
        ),
    ),
    (
        "review 3",
        "japan",
        (
            "Japan's population fell to 124.35 million as of October 1, 2023, according to the Ministry of Internal Affairs and Communications. It was the 13th consecutive year of decline, with a drop of 595,000 people. People aged 65 or older made up a record 29.1% of the total, while those aged 14 or younger accounted for 11.4%.",
        ),
        (
            ("Japan's population was about 124 million in October 2023 [1].", True, ""),
            ("It fell by nearly 600,000 people [1].", True, ""),
            ("That was the 12th year in a row of decline [1].", False, "13th"),
            ("Almost 30% of people were 65 or older [1].", True, ""),
            ("Children aged 14 or younger accounted for 12.4% [1].", False, "extra"),
        ),
    ),
    (
        "review 3",
        "us 2020",
        (
            "Joe Biden won the 2020 presidential election with 306 electoral votes to Donald Trump's 232. Biden received 81,283,501 votes (51.3%), compared with 74,223,975 (46.8%) for Trump. Turnout was 66.6% of eligible voters, the highest since 1900.",
        ),
        (
            ("Biden won 306 electoral votes against Trump's 232 [1].", True, ""),
            ("He received more than 81 million votes [1].", True, ""),
            ("Trump won about 47% of the popular vote [1].", True, ""),
            ("Turnout was the highest since 1908 [1].", False, "1900"),
        ),
    ),
    (
        "review 3",
        "us open",
        (
            "Novak Djokovic won the 2023 US Open men's singles title, defeating Daniil Medvedev 6–3, 7–6(5), 6–3 in the final on September 10. The victory was his 24th Grand Slam singles title. The match lasted 3 hours and 17 minutes. The champion received $3 million in prize money, while the runner-up took home $1.5 million.",
        ),
        (
            ("Djokovic beat Medvedev 6-3, 7-6, 6-3 in the final [1].", True, ""),
            ("It was his 24th Grand Slam singles title [1].", True, ""),
            ("The final lasted more than three hours [1].", True, ""),
            ("Djokovic took home $3.5 million [1].", False, "$3m"),
            ("The match lasted 3 hours and 7 minutes [1].", False, "extra"),
        ),
    ),
    (
        "review 3",
        "microsoft",
        (
            "Microsoft reported fiscal year 2023 revenue of $211.9 billion, an increase of 7%. Operating income was $88.5 billion, up 6%. Net income was $72.4 billion, a decrease of 1%. Intelligent Cloud revenue was $87.9 billion.",
        ),
        (
            ("Microsoft's FY2023 revenue was nearly $212 billion, up 7% [1].", True, ""),
            ("Operating income rose 6% to $88.5 billion [1].", True, ""),
            ("Net income grew 1% to $72.4 billion [1].", False, "decrease of 1%"),
            ("Intelligent Cloud brought in $87.9bn [1].", True, ""),
        ),
    ),
    (
        "review 3",
        "ev6",
        (
            "The 2024 Kia EV6 Long Range RWD has an EPA-estimated range of 310 miles. Its 77.4 kWh battery can charge from 10% to 80% in about 18 minutes on a 350 kW DC fast charger. The dual-motor GT version accelerates from 0 to 60 mph in 3.4 seconds and has a range of 218 miles.",
        ),
        (
            ("The EV6 Long Range RWD is rated for about 500 km of range [1].", True, ""),
            (
                "It charges from 10 to 80 percent in roughly 18 minutes on a 350 kW charger [1].",
                True,
                "",
            ),
            ("Its battery holds 74.4 kWh [1].", False, "77.4"),
            ("The GT reaches 60 mph in 3.4 s [1].", True, ""),
            ("The GT has a range of 281 miles [1].", False, "extra"),
        ),
    ),
    (
        "review 3",
        "la-sf",
        (
            "The drive from Los Angeles to San Francisco via Interstate 5 is about 380 miles and takes roughly 6 hours without traffic. The scenic Highway 1 route is about 460 miles and takes at least 10 hours. Gas stations are sparse on I-5 between Bakersfield and Gilroy.",
        ),
        (
            ("Driving from LA to San Francisco on I-5 covers about 380 miles [1].", True, ""),
            ("Without traffic the trip takes around six hours [1].", True, ""),
            ("The scenic Highway 1 route is about 640 km [1].", False, "460 mi = 740 km"),
            ("That route takes ten hours or more [1].", True, ""),
        ),
    ),
    (
        "review 3",
        "amoxicillin",
        (
            "Amoxicillin for adults: the usual dose is 500 mg every 8 hours or 875 mg every 12 hours, depending on the severity of the infection. For children over 3 months, the dose is 20 to 40 mg/kg/day divided every 8 hours. Treatment usually lasts 7 to 10 days.",
        ),
        (
            ("Adults typically take 500 mg every eight hours [1].", True, ""),
            ("An alternative is 875 mg every 12 hours [1].", True, ""),
            ("Children over 3 months get 25 to 45 mg/kg per day [1].", False, "20-40"),
            ("A course usually lasts a week to ten days [1].", True, ""),
        ),
    ),
    (
        "review 3",
        "cookies",
        (
            "Chocolate chip cookies (makes 24). 2 ¼ cups (280 g) all-purpose flour, 1 cup (2 sticks, 226 g) butter, ¾ cup granulated sugar, ¾ cup packed brown sugar, 2 large eggs, 2 cups (340 g) chocolate chips. Bake at 375°F (190°C) for 9 to 11 minutes.",
        ),
        (
            ("This recipe makes two dozen cookies [1].", True, ""),
            ("It uses two sticks of butter, about 225 g [1].", True, ""),
            ("Bake them at 190°C for 9–11 minutes [1].", True, ""),
            ("You'll need 3 cups of chocolate chips [1].", False, "2 cups"),
        ),
    ),
    (
        "review 3",
        "wwi",
        (
            "The First World War began on 28 July 1914 and ended with the armistice of 11 November 1918. Around 9 million soldiers were killed. The Treaty of Versailles was signed on 28 June 1919, exactly five years after the assassination of Archduke Franz Ferdinand.",
        ),
        (
            ("World War I started in July 1914 [1].", True, ""),
            ("The armistice was signed on 11/11/1918 [1].", True, ""),
            ("About nine million soldiers died [1].", True, ""),
            ("The Treaty of Versailles was signed on 28 June 1920 [1].", False, "1919"),
        ),
    ),
    (
        "review 3",
        "ian",
        (
            "Hurricane Ian made landfall near Cayo Costa, Florida, on September 28, 2022, as a Category 4 storm with maximum sustained winds of 150 mph. Storm surge reached 12 to 18 feet in parts of Lee County. Ian caused an estimated $112.9 billion in damage, making it the costliest hurricane in Florida's history.",
        ),
        (
            ("Ian came ashore on Sept. 28, 2022, as a Category 4 hurricane [1].", True, ""),
            ("Its maximum sustained winds were about 240 km/h [1].", True, ""),
            ("Storm surge reached 12 to 15 feet in parts of Lee County [1].", False, "12-18"),
            ("Damage was estimated at nearly $113 billion [1].", True, ""),
            ("Ian made landfall with maximum sustained winds of 155 mph [1].", False, "extra"),
        ),
    ),
    (
        "review 3",
        "k8s",
        (
            "Kubernetes v1.29, codenamed Mandala, was released on December 13, 2023. The release includes 49 enhancements: 11 graduating to stable, 19 to beta and 19 new alpha features. Each minor release is supported for approximately 14 months.",
        ),
        (
            ("Kubernetes 1.29 was released on 13 December 2023 [1].", True, ""),
            ("It shipped with 49 enhancements, 11 of which graduated to stable [1].", True, ""),
            ("Each minor release is supported for approximately 12 months [1].", False, "14"),
        ),
    ),
    (
        "review 3",
        "trattoria",
        (
            "Luigi's Trattoria. Lunch: Tuesday–Sunday, 12:00–14:30. Dinner: Tuesday–Saturday, 18:00–22:30. Closed Mondays. Reservations recommended for groups of more than 6.",
        ),
        (
            ("Lunch is served from noon until 2:30 pm, Tuesday to Sunday [1].", True, ""),
            ("Dinner runs from 6 pm to 10:30 pm, Tuesday to Saturday [1].", True, ""),
            ("Reservations are recommended for groups of more than 8 [1].", False, "6"),
        ),
    ),
    (
        "review 3",
        "austin",
        (
            "Austin, Texas, had a population of 961,855 in the 2020 census, up from 790,390 in 2010 — growth of 21.7%. The metropolitan area had 2,283,371 residents. The city's median household income was $75,752.",
        ),
        (
            ("Austin had nearly 962,000 residents in 2020 [1].", True, ""),
            ("Its population grew by about 22% over the decade [1].", True, ""),
            ("The metro area was home to roughly 2.3 million people [1].", True, ""),
            ("The city's median household income was about $57,000 [1].", False, "75,752"),
            ("Austin had about 690,000 residents in 2010 [1].", False, "extra"),
        ),
    ),
    (
        "review 3",
        "eu referendum",
        (
            "In the 2016 EU referendum, 51.89% voted to leave and 48.11% to remain. Turnout was 72.2%, with 33,577,342 votes cast. In Scotland, 62% voted to remain.",
        ),
        (
            ("Leave won with almost 52% of the vote [1].", True, ""),
            ("Remain got nearly half of the vote [1].", True, ""),
            ("Over 33.5 million votes were cast [1].", True, ""),
            ("In Scotland, 68% voted to remain [1].", False, "62"),
        ),
    ),
    (
        "review 3",
        "wilt 100",
        (
            "Wilt Chamberlain scored 100 points for the Philadelphia Warriors against the New York Knicks on March 2, 1962, an NBA record that still stands. He made 36 of 63 field goals and 28 of 32 free throws. The Warriors won 169–147.",
        ),
        (
            ("Chamberlain's 100-point game came on 2 March 1962 [1].", True, ""),
            ("He made 28 of 32 free throws [1].", True, ""),
            ("The Warriors won 169-147 [1].", True, ""),
            ("He made 36 of 68 field goals [1].", False, "63"),
        ),
    ),
    (
        "review 3",
        "nvidia",
        (
            "NVIDIA reported record revenue for the fourth quarter ended January 28, 2024, of $22.1 billion, up 22% from the previous quarter and up 265% from a year ago. Data Center revenue was a record $18.4 billion. For fiscal 2024, revenue was up 126% to $60.9 billion.",
        ),
        (
            ("Nvidia's Q4 revenue hit $22.1 billion, up 265% year over year [1].", True, ""),
            ("Data Center revenue was a record $18.4bn [1].", True, ""),
            ("For fiscal 2024, revenue more than doubled to about $61 billion [1].", True, ""),
            ("Revenue was up 26% from the previous quarter [1].", False, "22%"),
            ("The fourth quarter ended on January 28, 2023 [1].", False, "extra"),
        ),
    ),
    (
        "review 3",
        "dyson",
        (
            "The Dyson V15 Detect runs for up to 60 minutes on a single charge (in Eco mode, with a non-motorised tool). It has a 0.76-litre bin and weighs 3.1 kg. Suction power: 240 AW. Charging time: 270 minutes.",
        ),
        (
            ("It runs for up to an hour per charge in Eco mode [1].", True, ""),
            ("The bin holds 0.76 L [1].", True, ""),
            ("A full charge takes four and a half hours [1].", True, ""),
            ("It weighs 2.6 kg [1].", False, "3.1"),
        ),
    ),
    (
        "review 3",
        "shinkansen",
        (
            "The Nozomi shinkansen travels the 515 km between Tokyo and Shin-Osaka in about 2 hours 30 minutes. A one-way reserved seat costs ¥14,720. Hikari trains take around 3 hours, and Kodama trains about 4 hours.",
        ),
        (
            ("The Nozomi covers Tokyo to Shin-Osaka in around two and a half hours [1].", True, ""),
            ("The distance is 515 kilometres [1].", True, ""),
            ("A one-way reserved seat costs ¥14,720 [1].", True, ""),
            ("Hikari trains take around 3 hours 30 minutes [1].", False, "3 hours"),
        ),
    ),
    (
        "review 3",
        "vitamin d",
        (
            "The recommended dietary allowance (RDA) of vitamin D is 600 IU (15 mcg) daily for people aged 1 to 70 years, and 800 IU (20 mcg) for adults over 70. The tolerable upper intake level for adults is 4,000 IU (100 mcg) per day.",
        ),
        (
            ("People aged 1 to 70 need 15 micrograms of vitamin D a day [1].", True, ""),
            ("Adults over 70 should get 800 IU daily [1].", True, ""),
            (
                "The tolerable upper intake level for adults is 10,000 IU per day [1].",
                False,
                "4,000",
            ),
        ),
    ),
    (
        "review 3",
        "turkey",
        (
            "Roasting times for a whole turkey at 325°F (165°C): 8–12 lb: 2¾ to 3 hours; 12–14 lb: 3 to 3¾ hours; 14–18 lb: 3¾ to 4¼ hours. The turkey is done when the thickest part of the thigh reaches 165°F (74°C). Let it rest for 20 to 30 minutes before carving.",
        ),
        (
            ("A 12 to 14 pound turkey needs 3 to 3¾ hours at 325°F [1].", True, ""),
            ("It is done when the thickest part of the thigh reaches 74°C [1].", True, ""),
            ("Let it rest for 20–30 minutes before carving [1].", True, ""),
            ("A 14–18 lb turkey needs 4 to 4½ hours [1].", False, "3¾–4¼"),
        ),
    ),
    (
        "review 3",
        "titanic",
        (
            "RMS Titanic struck an iceberg at 23:40 ship's time on 14 April 1912 and sank at 02:20 on 15 April. Of the estimated 2,224 passengers and crew aboard, more than 1,500 died. The ship was 269 metres (882 ft 9 in) long.",
        ),
        (
            ("The Titanic hit the iceberg at 11:40 pm on April 14, 1912 [1].", True, ""),
            ("It sank at 2:20 am on 15 April [1].", True, ""),
            ("More than 1,500 of the roughly 2,200 people aboard died [1].", True, ""),
            ("The ship was 289 metres long [1].", False, "269"),
            ("Of the estimated 2,224 people aboard, more than 1,700 died [1].", False, "extra"),
        ),
    ),
    (
        "review 3",
        "uk records",
        (
            "The highest temperature ever recorded in the UK was 40.3°C at Coningsby, Lincolnshire, on 19 July 2022. The previous record, 38.7°C, was set in Cambridge on 25 July 2019. The lowest UK temperature was −27.2°C, recorded at Braemar in 1895 and 1982 and at Altnaharra in 1995.",
        ),
        (
            ("The UK's record high is 40.3°C, set at Coningsby on July 19, 2022 [1].", True, ""),
            ("The previous record, 38.7°C, was set in Cambridge in 2019 [1].", True, ""),
            (
                "The record low of −27.2°C was last matched at Altnaharra in the 1990s [1].",
                True,
                "",
            ),
            ("The lowest UK temperature was −29.2°C [1].", False, "-27.2"),
        ),
    ),
    (
        "review 3",
        "ios 17",
        (
            "Apple released iOS 17 on September 18, 2023. It is compatible with iPhone XS and later, including the iPhone SE (2nd generation). The update was about 3 GB on most devices. iOS 17.1 followed on October 25, 2023.",
        ),
        (
            ("iOS 17 was released on 18/09/2023 [1].", True, ""),
            ("The update was around 3 GB on most devices [1].", True, ""),
            ("iOS 17.1 followed on October 24, 2023 [1].", False, "25"),
        ),
    ),
    (
        "review 3",
        "gardens",
        (
            "Gates open daily at 7:30am. Closing times vary by season: 4:30pm in December and January, 6pm in March, 8pm in June and July. The glasshouses close 30 minutes before the gardens. Entry is free for under-16s.",
        ),
        (
            ("The gates open at 07:30 every day [1].", True, ""),
            ("In June and July they close at 20:00 [1].", True, ""),
            ("The glasshouses close half an hour before the gardens [1].", True, ""),
            ("In December the gates close at 5:30pm [1].", False, "4:30pm"),
            ("Entry is free for under-18s [1].", False, "extra"),
        ),
    ),
    (
        "review 3",
        "world pop",
        (
            "The world population reached 8 billion on 15 November 2022, according to the United Nations. It took 12 years for the population to grow from 7 to 8 billion. The UN projects it will peak at around 10.4 billion in the mid-2080s. India overtook China as the most populous country in April 2023.",
        ),
        (
            ("The world population reached eight billion on November 15, 2022 [1].", True, ""),
            ("It took a dozen years to grow from 7 to 8 billion [1].", True, ""),
            ("The UN projects a peak of about 10.4 billion in the 2080s [1].", True, ""),
            ("India overtook China as the most populous country in April 2022 [1].", False, "2023"),
            (
                "The UN projects the population will peak at around 10.8 billion [1].",
                False,
                "extra",
            ),
        ),
    ),
    (
        "review 3",
        "france 2022",
        (
            "Emmanuel Macron was re-elected President of France on 24 April 2022, winning 58.55% of the vote in the second round against Marine Le Pen's 41.45%. Abstention was 28.01%, the highest for a presidential runoff since 1969. In the first round on 10 April, Macron received 27.85%.",
        ),
        (
            (
                "Macron won the second round on 24 April 2022 with about 58.5% of the vote [1].",
                True,
                "",
            ),
            ("Le Pen took about 41% [1].", True, ""),
            ("Abstention was about 28%, the highest for a runoff since 1969 [1].", True, ""),
            ("In the first round, Macron received 28.85% [1].", False, "27.85"),
        ),
    ),
    (
        "review 3",
        "f1 2023",
        (
            "Max Verstappen won the 2023 Formula One World Championship with 575 points, a record. He won 19 of the 22 races, also a record, finishing 290 points ahead of teammate Sergio Pérez. Red Bull won 21 of 22 Grands Prix.",
        ),
        (
            ("Verstappen won 19 of the 22 races in 2023 [1].", True, ""),
            ("He won the championship with 575 points [1].", True, ""),
            ("He finished 209 points ahead of teammate Sergio Pérez [1].", False, "290"),
            ("Red Bull won all but one of the 22 Grands Prix [1].", True, ""),
            ("Red Bull won 20 of 22 Grands Prix [1].", False, "extra"),
        ),
    ),
    (
        "review 3",
        "amazon",
        (
            "As of December 31, 2023, Amazon employed approximately 1,525,000 full-time and part-time employees, down from about 1,541,000 a year earlier. Net sales increased 12% to $574.8 billion in 2023. AWS segment sales increased 13% to $90.8 billion.",
        ),
        (
            ("Amazon employed about 1.5 million people at the end of 2023 [1].", True, ""),
            ("Net sales increased 12% to $574.8bn [1].", True, ""),
            ("AWS sales rose 13% to nearly $91 billion [1].", True, ""),
            ("That was down from about 1.6 million employees a year earlier [1].", False, "1.541m"),
        ),
    ),
    (
        "review 3",
        "a7iv",
        (
            "The Sony A7 IV features a 33-megapixel full-frame sensor and can shoot up to 10 frames per second. It records 4K video at up to 60p (with a 1.5x crop). The body weighs 658 g including battery and memory card. Battery life is rated at about 580 shots using the viewfinder, or 610 with the LCD.",
        ),
        (
            ("The A7 IV has a 33 MP full-frame sensor [1].", True, ""),
            ("It shoots at up to 10 fps [1].", True, ""),
            ("It weighs about 660 grams with battery and card [1].", True, ""),
            ("Battery life is about 520 shots using the viewfinder [1].", False, "580"),
            ("It records 4K video at up to 120p [1].", False, "extra"),
        ),
    ),
    (
        "review 3",
        "camino",
        (
            "The Camino Francés runs about 790 km (490 miles) from Saint-Jean-Pied-de-Port to Santiago de Compostela. Most pilgrims complete it in 30 to 35 days, walking an average of 20–25 km per day. To receive the Compostela certificate, you must walk at least the last 100 km.",
        ),
        (
            ("The Camino Francés is roughly 490 miles long [1].", True, ""),
            ("Most pilgrims finish it in 30–35 days [1].", True, ""),
            (
                "You must walk at least the final 100 kilometres to receive the Compostela [1].",
                True,
                "",
            ),
            ("Pilgrims walk an average of 25–30 km per day [1].", False, "20-25"),
        ),
    ),
    (
        "review 3",
        "blood pressure",
        (
            "Normal blood pressure is less than 120/80 mmHg. Elevated blood pressure is a systolic reading of 120–129 with diastolic below 80. Stage 1 hypertension is 130–139 systolic or 80–89 diastolic. Stage 2 hypertension is 140/90 mmHg or higher. A reading above 180/120 is a hypertensive crisis.",
        ),
        (
            ("Normal blood pressure is below 120/80 mmHg [1].", True, ""),
            ("Stage 1 hypertension is a systolic reading of 130 to 139 [1].", True, ""),
            ("Stage 2 hypertension is 140/90 mmHg or above [1].", True, ""),
            ("A reading above 160/110 is a hypertensive crisis [1].", False, "180/120"),
            ("Elevated blood pressure is a systolic reading of 120–134 [1].", False, "extra"),
        ),
    ),
    (
        "review 3",
        "bread",
        (
            "Basic white loaf: 500g strong white flour, 7g sachet fast-action yeast, 10g salt, 300ml warm water, 2 tbsp olive oil. Knead for 10 minutes, then leave to rise for 1 hour or until doubled. Bake at 220°C (200°C fan) for 25–30 minutes.",
        ),
        (
            ("You need half a kilo of strong white flour [1].", True, ""),
            ("Add 300 ml of warm water and a 7 g sachet of yeast [1].", True, ""),
            ("Leave the dough to rise for about an hour [1].", True, ""),
            ("Bake at 240°C for 25 to 30 minutes [1].", False, "220"),
        ),
    ),
    (
        "review 3",
        "sputnik",
        (
            "Sputnik 1 was launched by the Soviet Union on 4 October 1957. It orbited Earth for three months, completing 1,440 orbits before burning up on re-entry on 4 January 1958. The satellite was a polished metal sphere 58 cm in diameter with four external radio antennas.",
        ),
        (
            ("The Soviet Union launched Sputnik 1 in the 1950s, on October 4, 1957 [1].", True, ""),
            ("It completed 1,440 orbits over three months [1].", True, ""),
            ("It was a metal sphere 58 centimetres in diameter [1].", True, ""),
            ("It burned up on re-entry on 4 January 1959 [1].", False, "1958"),
        ),
    ),
    (
        "review 3",
        "buffalo snow",
        (
            "Winter storm totals: Buffalo Niagara International Airport recorded 51.9 inches of snow between November 17 and 20, 2022. Orchard Park reached 80 inches, the highest total reported. Wind gusts reached 70 mph. Temperatures stayed between 25°F and 32°F throughout the event.",
        ),
        (
            ("Buffalo's airport recorded nearly 52 inches of snow [1].", True, ""),
            ("Orchard Park reached about 80 inches, the highest total reported [1].", True, ""),
            ("Wind gusts reached 70 miles per hour [1].", True, ""),
            ("Temperatures stayed between 20°F and 32°F [1].", False, "25-32"),
            ("The snow fell between November 17 and 22, 2022 [1].", False, "extra"),
        ),
    ),
    (
        "review 3",
        "linux",
        (
            "Linux 6.6 was released on October 30, 2023, and was later designated a long-term support kernel. Linux 6.7 followed on 2024-01-07, after a development cycle of 69 days and more than 17,000 non-merge commits, the largest release ever by commit count.",
        ),
        (
            ("Linux 6.6 was released at the end of October 2023 [1].", True, ""),
            ("Linux 6.7 followed on 7 January 2024 [1].", True, ""),
            ("Its development cycle lasted 63 days [1].", False, "69"),
            ("It included more than 17,000 non-merge commits [1].", True, ""),
        ),
    ),
    (
        "review 3",
        "heathrow express",
        (
            "Heathrow Express trains run every 15 minutes from 05:10 to 23:25 between London Paddington and Heathrow Terminals 2 & 3. The journey takes 15 minutes. Advance single tickets start from £10; the standard walk-up fare is £25.",
        ),
        (
            ("Trains run every quarter of an hour [1].", True, ""),
            ("The first train is at 5:10am and the last at 11:25pm [1].", True, ""),
            ("The journey takes 15 minutes [1].", True, ""),
            ("The standard walk-up fare is £22 [1].", False, "25"),
            ("Advance single tickets start from £5 [1].", False, "extra"),
        ),
    ),
    (
        "review 3",
        "nordics",
        (
            "Population of the Nordic countries (2023): Sweden 10,551,707; Denmark 5,932,654; Finland 5,603,851; Norway 5,550,203; Iceland 387,758.",
            "Sweden's population passed 10.5 million in 2022. The capital, Stockholm, has about 984,000 inhabitants in the municipality and 2.4 million in the metropolitan area.",
        ),
        (
            ("Sweden has about 10.6 million people [1].", True, ""),
            ("Denmark's population is just under 6 million [1].", True, ""),
            ("Norway has about 5.65 million people [1].", False, "5.55m"),
            ("Stockholm's metropolitan area is home to around 2.4 million people [2].", True, ""),
            ("Iceland has fewer than 400,000 people [1].", True, ""),
        ),
    ),
    (
        "review 3",
        "india 2024",
        (
            "The 2024 Indian general election was held in seven phases from 19 April to 1 June 2024. Results were declared on 4 June. The BJP won 240 of 543 seats, short of the 272 needed for a majority, while the NDA alliance won 293.",
            "About 642 million voters cast ballots in the 2024 Lok Sabha election, a turnout of 65.79%. The electorate numbered 968 million, the largest in the world.",
        ),
        (
            ("India's 2024 election ran in seven phases from April 19 to June 1 [1].", True, ""),
            ("The BJP won 240 seats, 32 short of a majority [1].", True, ""),
            ("The NDA alliance won 293 seats [1].", True, ""),
            ("Around 642 million people voted, a turnout of about 66% [2].", True, ""),
            ("The electorate numbered 986 million [2].", False, "968"),
        ),
    ),
    (
        "review 4",
        "Liverpool v Everton derby",
        (
            "Liverpool beat Everton 3-1 at Anfield on Saturday 14 October, with Mohamed Salah scoring twice. The attendance was 53,114. Everton had taken the lead in the 12th minute through Dominic Calvert-Lewin before Salah equalised in the 38th minute. Darwin Núñez added the third in stoppage time, in the 93rd minute.",
        ),
        (
            ("Liverpool beat Everton 3-1 at Anfield on 14 October [1].", True, ""),
            ("Salah scored two of the goals, including a 38th-minute equaliser [1].", True, ""),
            ("A crowd of just over 53,000 watched the match [1].", True, ""),
            (
                "Núñez wrapped up the win with a goal in the 88th minute [1].",
                False,
                "93rd minute (stoppage time)",
            ),
        ),
    ),
    (
        "review 4",
        "Spotify Q3 results",
        (
            "Spotify reported third-quarter revenue of €3.36 billion, up 11% year on year. Monthly active users rose 26% to 574 million, while paying subscribers grew 16% to 226 million. The company posted an operating income of €32 million, compared with an operating loss of €228 million a year earlier. Gross margin was 26.4%.",
        ),
        (
            (
                "Spotify's third-quarter revenue came to roughly €3.4 billion, an 11% increase on the prior year [1].",
                True,
                "",
            ),
            ("Monthly active users climbed to 574 million [1].", True, ""),
            (
                "Paying subscribers grew 26% to 226 million [1].",
                False,
                "subscribers grew 16%; 26% is MAU growth",
            ),
            (
                "The company swung to an operating profit of €32 million, after losing €228 million in the same quarter a year before [1].",
                True,
                "",
            ),
        ),
    ),
    (
        "review 4",
        "Galaxy S24 specs",
        (
            "The Galaxy S24 has a 6.2-inch Dynamic AMOLED 2X display with a refresh rate of up to 120Hz. It is powered by a 4,000mAh battery and supports 25W wired charging. The phone weighs 167 g and measures 147.0 x 70.6 x 7.6 mm. Storage options are 128GB, 256GB and 512GB, all with 8GB of RAM.",
        ),
        (
            ("The S24's screen measures 6.2 inches and refreshes at up to 120 Hz [1].", True, ""),
            ("It has a 4,000 mAh battery and supports 45W wired charging [1].", False, "25W"),
            ("The handset weighs under 170 grams and is 7.6 mm thick [1].", True, ""),
            (
                "Every storage configuration, from 128GB up to 512GB, comes with 8GB of RAM [1].",
                True,
                "",
            ),
            (
                "There is also a 1TB version for heavy users [1].",
                False,
                "extra: storage options are 128/256/512GB only",
            ),
        ),
    ),
    (
        "review 4",
        "LNER London-Edinburgh",
        (
            "LNER's fastest services between London King's Cross and Edinburgh Waverley take 4 hours 20 minutes, with trains running roughly every 30 minutes during the day. Advance single fares start from £44.10, while an Anytime Single costs £193.10. The first departure from King's Cross is at 05:48 and the last direct train leaves at 19:00.",
        ),
        (
            (
                "The quickest LNER trains get from King's Cross to Edinburgh in under four and a half hours [1].",
                True,
                "",
            ),
            ("During the day there is a train approximately every half hour [1].", True, ""),
            ("A fully flexible Anytime Single costs £139.10 [1].", False, "£193.10"),
            (
                "The first train leaves at 5:48am, and the last direct service departs at 9pm [1].",
                False,
                "last direct train 19:00 (7pm)",
            ),
        ),
    ),
    (
        "review 4",
        "amoxicillin dosing",
        (
            "For adults, the usual dose of amoxicillin is 500 mg three times a day, or 1,000 mg three times a day for more severe infections. A course usually lasts 5 to 7 days. For children, doses are based on body weight; the typical range is 40 to 90 mg per kg per day, divided into two or three doses. The capsules should be taken at evenly spaced times.",
        ),
        (
            ("Adults typically take 500 mg of amoxicillin three times daily [1].", True, ""),
            (
                "For more serious infections the dose can be doubled to 1 g, still three times a day [1].",
                True,
                "",
            ),
            ("A course of treatment usually runs for 7 to 10 days [1].", False, "5 to 7 days"),
            (
                "Children's doses are worked out by weight, typically 40 to 90 mg per kilogram per day split into two or three doses [1].",
                True,
                "",
            ),
            (
                "Adults should not exceed 4 g in a day [1].",
                False,
                "extra: no maximum given (severe dose is 1,000 mg three times a day)",
            ),
        ),
    ),
    (
        "review 4",
        "chocolate chip cookies",
        (
            "Classic chocolate chip cookies. Ingredients: 225 g butter, 200 g brown sugar, 100 g caster sugar, 2 large eggs, 1 tsp vanilla extract, 340 g plain flour, 1 tsp bicarbonate of soda, ½ tsp salt, 300 g chocolate chips. Bake at 190°C (170°C fan) for 9 to 11 minutes. Makes about 30 cookies.",
        ),
        (
            ("You'll need 225 g of butter and two large eggs [1].", True, ""),
            (
                "The dough uses 200 g of caster sugar [1].",
                False,
                "200 g is brown sugar; caster sugar is 100 g",
            ),
            ("Bake them at 190°C, or 170°C in a fan oven, for around 10 minutes [1].", True, ""),
            ("The batch makes roughly thirty cookies [1].", True, ""),
        ),
    ),
    (
        "review 4",
        "fall of Constantinople",
        (
            "Constantinople fell to the Ottoman army of Sultan Mehmed II on 29 May 1453, after a siege that began on 6 April. The last Byzantine emperor, Constantine XI Palaiologos, died in the final assault. The defenders numbered roughly 7,000, against an Ottoman force estimated at between 50,000 and 80,000.",
        ),
        (
            ("The city fell on May 29, 1453 [1].", True, ""),
            ("The siege had lasted nearly two months, having started on 6 April [1].", True, ""),
            ("Around 7,000 defenders faced an Ottoman army of 50,000 to 80,000 men [1].", True, ""),
            (
                "Constantine XI, the last Byzantine emperor, was killed in the final assault [1].",
                True,
                "",
            ),
            (
                "The defenders were outnumbered by more than twenty to one [1].",
                False,
                "roughly 7,000 v 50,000-80,000, i.e. about 7-11 to one",
            ),
        ),
    ),
    (
        "review 4",
        "British Museum opening hours",
        (
            "The British Museum is open daily from 10:00 to 17:00, with late opening until 20:30 on Fridays. Last entry is 30 minutes before closing. The museum is closed 24–26 December. Admission to the permanent collection is free; special exhibitions are ticketed, typically £18–£22.",
        ),
        (
            ("The museum opens at 10am every day and normally closes at 5pm [1].", True, ""),
            ("On Fridays it stays open until 8:30 in the evening [1].", True, ""),
            ("It is shut from Christmas Eve through Boxing Day [1].", True, ""),
            (
                "Entry to the permanent collection is free, while special exhibitions usually cost between £18 and £25 [1].",
                False,
                "£18-£22",
            ),
        ),
    ),
    (
        "review 4",
        "Reykjavik climate",
        (
            "In Reykjavík, July is the warmest month, with an average high of 14.1°C and an average low of 9.2°C. January averages a high of 1.9°C and a low of −3.0°C. Annual precipitation is about 845 mm, and October is typically the wettest month with around 95 mm.",
        ),
        (
            ("July is Reykjavík's warmest month, with average highs of around 14°C [1].", True, ""),
            (
                "Even in January, average highs stay just above freezing, at about 2°C, with lows near −3°C [1].",
                True,
                "",
            ),
            ("The city gets roughly 845 mm of precipitation a year [1].", True, ""),
            (
                "November is usually the wettest month, with about 95 mm [1].",
                False,
                "October is the wettest month",
            ),
        ),
    ),
    (
        "review 4",
        "Dutch 2023 general election",
        (
            "In the Dutch general election held on 22 November 2023, Geert Wilders's PVV won 37 of the 150 seats in the House of Representatives, more than doubling its previous total of 17. The GroenLinks–PvdA alliance came second with 25 seats, and the VVD third with 24. Turnout was 77.7%.",
        ),
        (
            ("Wilders's PVV took thirty-seven of the 150 seats [1].", True, ""),
            ("That was more than double the 17 seats it had held before [1].", True, ""),
            (
                "The GroenLinks–PvdA alliance finished second with 24 seats [1].",
                False,
                "25 seats; 24 was the VVD",
            ),
            ("Turnout was nearly 78% [1].", True, ""),
        ),
    ),
    (
        "review 4",
        "Canada 2021 census",
        (
            "Canada's population was 36,991,981 on census day, 11 May 2021, an increase of 5.2% from 2016. Ontario remained the most populous province with 14.2 million people, followed by Quebec with 8.5 million. Nearly three in four Canadians (73.7%) lived in one of the country's 41 large urban centres.",
        ),
        (
            ("The 2021 census counted almost 37 million people in Canada [1].", True, ""),
            ("That was a rise of just over 5% since 2016 [1].", True, ""),
            (
                "Quebec, with about 8.5 million residents, ranked second behind Ontario's 14.2 million [1].",
                True,
                "",
            ),
            ("About 84% of Canadians lived in the 41 large urban centres [1].", False, "73.7%"),
        ),
    ),
    (
        "review 4",
        "PostgreSQL 16 release",
        (
            "The PostgreSQL Global Development Group announced the release of PostgreSQL 16 on September 14, 2023. The release improves query parallelism and delivers bulk-loading performance improvements of up to 300% in some cases when using COPY. PostgreSQL 16 will receive fixes for five years, until November 9, 2028.",
            "PostgreSQL 15 was released on October 13, 2022, and is supported until November 11, 2027.",
        ),
        (
            ("PostgreSQL 16 was released on 14 September 2023 [1].", True, ""),
            (
                "Bulk loading with COPY saw performance gains of up to 300% in some cases [1].",
                True,
                "",
            ),
            (
                "It arrived about eleven months after PostgreSQL 15, which came out in October 2022 [1][2].",
                True,
                "",
            ),
            ("Each major version receives fixes for seven years [1].", False, "five years"),
            (
                "PostgreSQL 15 remains supported until November 2028 [2].",
                False,
                "November 11, 2027",
            ),
        ),
    ),
    (
        "review 4",
        "speed of light",
        (
            "Light travels through a vacuum at exactly 299,792,458 metres per second. Sunlight takes about 8 minutes and 20 seconds to reach Earth, which orbits at an average distance of 149.6 million kilometres. Light from the Moon, about 384,400 km away, arrives in roughly 1.28 seconds.",
        ),
        (
            ("In a vacuum, light travels at just under 300,000 km per second [1].", True, ""),
            ("Sunlight reaches us in a little over eight minutes [1].", True, ""),
            (
                "Earth orbits at an average distance of about 149.6 billion km from the Sun [1].",
                False,
                "149.6 million km",
            ),
            ("Moonlight takes around 1.3 seconds to get here [1].", True, ""),
        ),
    ),
    (
        "review 4",
        "marathon world records",
        (
            "Kelvin Kiptum set a men's marathon world record of 2:00:35 at the Chicago Marathon on 8 October 2023, breaking Eliud Kipchoge's previous mark of 2:01:09 by 34 seconds. Kiptum was 23 at the time. Tigst Assefa holds the women's record of 2:11:53, set in Berlin in September 2023.",
        ),
        (
            ("Kiptum ran 2:00:35 in Chicago in October 2023 [1].", True, ""),
            (
                "He took 34 seconds off Kipchoge's old record of 2 hours 1 minute 9 seconds [1].",
                True,
                "",
            ),
            ("Kiptum was just 23 when he set the mark [1].", True, ""),
            (
                "Kiptum's time was more than a minute faster than Kipchoge's [1].",
                False,
                "34 seconds faster",
            ),
        ),
    ),
    (
        "review 4",
        "Netflix US plans",
        (
            "Netflix's US plans: Standard with ads costs $6.99 per month. Standard (no ads, two screens, 1080p) is $15.49 per month. Premium (four screens, Ultra HD) is $22.99 per month. Adding an extra member who doesn't live with you costs $7.99 a month on Standard and Premium plans.",
        ),
        (
            ("The cheapest option, Standard with ads, is $6.99 a month [1].", True, ""),
            (
                "Premium costs just under $23 a month and lets you stream on four screens in Ultra HD [1].",
                True,
                "",
            ),
            (
                "Standard without ads costs $15.49 and supports up to four screens [1].",
                False,
                "two screens",
            ),
            ("You can add someone outside your household for $7.99 a month [1].", True, ""),
            (
                "Extra members can be added to any plan, including Standard with ads [1].",
                False,
                "only on Standard and Premium",
            ),
        ),
    ),
    (
        "review 4",
        "Staten Island Ferry",
        (
            "The Staten Island Ferry runs 24 hours a day, 7 days a week, between Whitehall Terminal in Manhattan and St. George Terminal on Staten Island. The 5.2-mile trip takes approximately 25 minutes. During rush hours boats depart every 15 to 20 minutes; late at night, service is every 30 minutes to an hour. The ferry is free.",
        ),
        (
            ("The ferry operates around the clock, every day of the week [1].", True, ""),
            ("The crossing of a little over five miles takes roughly 25 minutes [1].", True, ""),
            ("At rush hour, boats leave every 15 to 20 minutes [1].", True, ""),
            (
                "Late at night, departures are every 30 to 45 minutes [1].",
                False,
                "every 30 minutes to an hour",
            ),
        ),
    ),
    (
        "review 4",
        "US 2023 tax filing",
        (
            "For the 2023 tax year, the deadline to file federal income tax returns is Monday, April 15, 2024. Taxpayers who request an extension using Form 4868 have until October 15, 2024, to file, but any tax owed is still due by April 15. The standard deduction for single filers is $13,850, and $27,700 for married couples filing jointly.",
        ),
        (
            ("Federal returns for 2023 are due on Monday, 15 April 2024 [1].", True, ""),
            ("Filing Form 4868 pushes the filing deadline back to October 15, 2024 [1].", True, ""),
            (
                "An extension also moves the payment deadline to October [1].",
                False,
                "tax owed is still due by April 15",
            ),
            (
                "The standard deduction is $13,850 for single filers and exactly twice that, $27,700, for joint filers [1].",
                True,
                "",
            ),
        ),
    ),
    (
        "review 4",
        "avocado nutrition",
        (
            "One medium avocado (about 150 g) contains around 240 calories, 22 g of fat, 13 g of carbohydrate and 10 g of fibre. Most of its fat is monounsaturated (about 15 g). It also provides roughly 710 mg of potassium, more than a medium banana's 420 mg.",
        ),
        (
            ("A medium avocado has roughly 240 calories [1].", True, ""),
            ("It contains about ten grams of fibre and 13 grams of carbohydrate [1].", True, ""),
            ("Around 15 g of its 22 g of fat is monounsaturated [1].", True, ""),
            (
                "An avocado supplies about 420 mg of potassium [1].",
                False,
                "about 710 mg; 420 mg is a banana",
            ),
        ),
    ),
    (
        "review 4",
        "Wimbledon 2023 men's final",
        (
            "Carlos Alcaraz won the 2023 Wimbledon men's singles title on 16 July, beating Novak Djokovic 1–6, 7–6(6), 6–1, 3–6, 6–4 in a final lasting 4 hours and 42 minutes. Alcaraz, 20, ended Djokovic's 34-match winning streak on Centre Court. The champion received £2.35 million in prize money.",
        ),
        (
            ("Alcaraz beat Djokovic in five sets in the 2023 Wimbledon final [1].", True, ""),
            ("The match went on for more than four and a half hours [1].", True, ""),
            (
                "Alcaraz lost the opening set 6–1 before winning the second on a tiebreak [1].",
                True,
                "",
            ),
            (
                "His win ended Djokovic's run of 43 straight wins on Centre Court [1].",
                False,
                "34-match winning streak",
            ),
            ("The final was played on 9 July [1].", False, "16 July"),
        ),
    ),
    (
        "review 4",
        "Amazon Q3 2023",
        (
            "Amazon reported net sales of $143.1 billion in the third quarter of 2023, up 13% from $127.1 billion a year earlier. Operating income rose to $11.2 billion from $2.5 billion. Net income was $9.9 billion, or $0.94 per diluted share.",
            "Amazon Web Services segment sales grew 12% year over year to $23.1 billion in Q3 2023, with operating income of $7.0 billion.",
        ),
        (
            ("Amazon's Q3 2023 revenue was about $143 billion, up 13% [1].", True, ""),
            (
                "Operating income more than quadrupled, from $2.5 billion to $11.2 billion [1].",
                True,
                "",
            ),
            (
                "AWS contributed $23.1 billion of sales, roughly a sixth of the company's total [1][2].",
                True,
                "",
            ),
            ("AWS sales grew 21% year over year [2].", False, "12%"),
            (
                "AWS's $7.0 billion operating income was more than half of Amazon's total operating income [1][2].",
                True,
                "",
            ),
        ),
    ),
    (
        "review 4",
        "Kindle Paperwhite specs",
        (
            "The Kindle Paperwhite (11th generation) has a 6.8-inch glare-free display at 300 ppi. It is waterproof to IPX8, rated for immersion in 2 metres of fresh water for up to 60 minutes. Battery life is up to 10 weeks, based on half an hour of reading a day with wireless off and light at 13. It charges fully in about 2.5 hours with a 9W USB-C adapter. Base model storage is 8 GB; the Signature Edition has 32 GB.",
        ),
        (
            ("The Paperwhite has a 6.8-inch, 300 ppi screen [1].", True, ""),
            (
                "It can survive being submerged in two metres of fresh water for up to an hour [1].",
                True,
                "",
            ),
            ("The battery lasts up to ten weeks if you read for half an hour a day [1].", True, ""),
            (
                "The Signature Edition has 16 GB of storage, double the base model [1].",
                False,
                "32 GB (four times the base 8 GB)",
            ),
        ),
    ),
    (
        "review 4",
        "Paris Metro fares 2024",
        (
            "From 1 January 2024, a single Métro ticket in Paris costs €2.15, up from €2.10. The Navigo weekly pass, valid for zones 1–5, costs €30.75 and runs from Monday to Sunday. A single ticket to Charles de Gaulle or Orly airport costs €13.",
        ),
        (
            ("A single Métro ticket now costs €2.15, five cents more than before [1].", True, ""),
            ("The weekly Navigo pass costs just under €31 and covers zones 1 to 5 [1].", True, ""),
            ("The weekly pass is valid from Sunday to Saturday [1].", False, "Monday to Sunday"),
            ("A ticket to either Charles de Gaulle or Orly costs €13 [1].", True, ""),
            ("The new prices took effect on 1 January 2023 [1].", False, "1 January 2024"),
        ),
    ),
    (
        "review 4",
        "cetirizine dosing",
        (
            "Cetirizine: adults and children aged 12 and over take 10 mg once a day. Children aged 6 to 11 may take 5 mg twice a day. Not recommended for children under 2. Effects start within about an hour and last for 24 hours. Adults should not take more than 10 mg in 24 hours.",
        ),
        (
            ("Adults and anyone aged 12 or over take a single 10 mg dose each day [1].", True, ""),
            ("Children aged 6 to 11 can have 5 mg twice daily [1].", True, ""),
            (
                "It starts working within roughly an hour and the effect lasts a full day [1].",
                True,
                "",
            ),
            (
                "Adults can take up to 20 mg in 24 hours [1].",
                False,
                "no more than 10 mg in 24 hours",
            ),
        ),
    ),
    (
        "review 4",
        "pancake recipe",
        (
            "Easy pancakes (makes 8): 100 g plain flour, 2 large eggs, 300 ml semi-skimmed milk, 1 tbsp sunflower oil, pinch of salt. Whisk into a smooth batter and rest for 30 minutes. Cook each pancake for about 1 minute on each side over a medium heat in a 20 cm pan.",
        ),
        (
            (
                "To make eight pancakes you need 100 g of flour, two eggs and 300 ml of milk [1].",
                True,
                "",
            ),
            ("Let the batter rest for half an hour [1].", True, ""),
            (
                "Fry each one for around a minute per side in a 20 cm pan over medium heat [1].",
                True,
                "",
            ),
            ("The batter needs 2 tablespoons of sunflower oil [1].", False, "1 tbsp"),
        ),
    ),
    (
        "review 4",
        "Magna Carta",
        (
            "King John sealed Magna Carta at Runnymede on 15 June 1215. The charter was annulled by Pope Innocent III just ten weeks later, on 24 August 1215. It was reissued in 1216, 1217 and 1225; the 1225 version became part of English statute law in 1297. Four copies of the 1215 charter survive.",
        ),
        (
            ("Magna Carta was sealed at Runnymede in June 1215 [1].", True, ""),
            ("Pope Innocent III annulled it about ten weeks later, in late August [1].", True, ""),
            ("It was reissued three times, in 1216, 1217 and 1225 [1].", True, ""),
            ("The 1225 version entered English statute law in 1279 [1].", False, "1297"),
        ),
    ),
    (
        "review 4",
        "Louvre opening hours",
        (
            "The Louvre is open from 9 am to 6 pm on Monday, Thursday, Saturday and Sunday, and from 9 am to 9 pm on Wednesday and Friday. It is closed on Tuesdays. Galleries begin to close 30 minutes before the museum does. Tickets cost €22 when bought online; entry is free for under-18s.",
        ),
        (
            ("The Louvre is closed every Tuesday [1].", True, ""),
            ("It stays open until 9pm on Wednesdays and Fridays [1].", True, ""),
            ("Rooms start closing half an hour before the museum shuts [1].", True, ""),
            ("Online tickets cost €17 [1].", False, "€22"),
            ("Entry is free for visitors under 26 [1].", False, "free for under-18s"),
        ),
    ),
    (
        "review 4",
        "Storm Ciarán",
        (
            "Storm Ciarán brought gusts of 104 mph to the Pointe du Raz in Brittany on 2 November 2023, and 93 mph to Guernsey. In England, the highest gust was 85 mph at the Needles on the Isle of Wight. At least 16 deaths across Europe were linked to the storm. Around 1.2 million homes in France lost power.",
        ),
        (
            ("Gusts reached 104 mph at the Pointe du Raz in Brittany [1].", True, ""),
            (
                "England's strongest gust, 85 mph, was recorded at the Needles on the Isle of Wight [1].",
                True,
                "",
            ),
            ("Guernsey saw gusts of more than 100 mph [1].", False, "93 mph"),
            ("Roughly 1.2 million homes in France were left without electricity [1].", True, ""),
        ),
    ),
    (
        "review 4",
        "Argentina 2023 runoff",
        (
            "Javier Milei won Argentina's presidential runoff on 19 November 2023 with 55.7% of the vote, against 44.3% for Economy Minister Sergio Massa. Turnout was 76.3%. Milei took office on 10 December 2023 for a four-year term.",
        ),
        (
            ("Milei won the runoff with almost 56% of the vote [1].", True, ""),
            ("His margin over Massa was more than 11 percentage points [1].", True, ""),
            ("Around three-quarters of voters turned out [1].", True, ""),
            ("Milei was sworn in on 10 November 2023 [1].", False, "10 December 2023"),
        ),
    ),
    (
        "review 4",
        "Tokyo population",
        (
            "As of 1 January 2024, Tokyo Metropolis had an estimated population of 14,086,000, about 11% of Japan's total. The 23 special wards accounted for 9.7 million of these residents. The Greater Tokyo Area, including neighbouring prefectures, is home to roughly 37 million people.",
        ),
        (
            (
                "Tokyo Metropolis had just over 14 million residents at the start of 2024 [1].",
                True,
                "",
            ),
            ("Around 9.7 million of them lived in the 23 special wards [1].", True, ""),
            ("The wider Greater Tokyo Area has about 37 million inhabitants [1].", True, ""),
            (
                "Tokyo Metropolis is home to roughly a quarter of Japan's population [1].",
                False,
                "about 11%",
            ),
        ),
    ),
    (
        "review 4",
        "Ubuntu 24.04 LTS",
        (
            "Ubuntu 24.04 LTS 'Noble Numbat' was released on 25 April 2024. It ships with Linux kernel 6.8 and GNOME 46. As an LTS release, it receives five years of standard security maintenance, until May 2029, extendable to 12 years with Ubuntu Pro. The minimum recommended memory for the desktop edition is 4 GB.",
        ),
        (
            ("Ubuntu 24.04 LTS came out on April 25, 2024 [1].", True, ""),
            ("It ships with Linux 6.8 and GNOME 46 [1].", True, ""),
            ("Standard security maintenance runs for five years, to May 2029 [1].", True, ""),
            ("Ubuntu Pro extends coverage to a total of 10 years [1].", False, "12 years"),
        ),
    ),
    (
        "review 4",
        "boiling point and altitude",
        (
            "Water boils at 100°C at sea level, where atmospheric pressure is 101.3 kPa. The boiling point drops by roughly 1°C for every 300 metres of altitude. At the summit of Mount Everest (8,849 m), where pressure is about a third of sea level, water boils at around 70°C.",
        ),
        (
            ("At sea level, where pressure is about 101 kPa, water boils at 100 °C [1].", True, ""),
            (
                "For every 300 m you climb, the boiling point falls by about one degree Celsius [1].",
                True,
                "",
            ),
            ("On top of Everest, water boils at roughly 70 degrees [1].", True, ""),
            (
                "Air pressure at Everest's summit is about half that at sea level [1].",
                False,
                "about a third",
            ),
        ),
    ),
    (
        "review 4",
        "Duplantis pole vault record",
        (
            "Swedish pole vaulter Armand Duplantis raised his own world record to 6.23 metres at the Prefontaine Classic in Eugene, Oregon, on 17 September 2023. It was the seventh time he had broken the world record, which he first set at 6.17 m in February 2020. Duplantis was 23.",
        ),
        (
            ("Duplantis cleared 6.23 m in Eugene in September 2023 [1].", True, ""),
            ("It was the seventh world record of his career [1].", True, ""),
            ("His first world record, 6.17 m, came in February 2021 [1].", False, "February 2020"),
            ("Over those seven records he raised the mark by 6 cm in total [1].", True, ""),
            ("He was 25 at the time [1].", False, "23"),
        ),
    ),
    (
        "review 4",
        "US gasoline prices",
        (
            "The national average price for a gallon of regular gasoline in the US was $3.12 on 15 January 2024, according to AAA, down 9 cents from a month earlier and 18 cents lower than a year ago. California had the highest average at $4.64, while Oklahoma had the lowest at $2.68. Diesel averaged $3.93.",
            "AAA: In mid-January 2023, the national average for a gallon of regular was $3.30.",
        ),
        (
            ("Regular gas averaged $3.12 a gallon nationally in mid-January 2024 [1].", True, ""),
            (
                "Compared with the $3.30 average a year earlier, prices were down 18 cents [1][2].",
                True,
                "",
            ),
            ("California was the priciest state at $4.64 a gallon [1].", True, ""),
            ("Oklahoma had the cheapest gas, at $2.86 [1].", False, "$2.68"),
            ("Diesel averaged under $3.50 [1].", False, "$3.93"),
        ),
    ),
    (
        "review 4",
        "Elizabeth line",
        (
            "The Elizabeth line runs between Reading and Heathrow in the west and Shenfield and Abbey Wood in the east. Trains through the central section run up to 24 times an hour at peak times. A journey from Paddington to Canary Wharf takes around 17 minutes, and from Paddington to Heathrow Terminals 2 & 3 about 28 minutes. The line carried its 500 millionth passenger in November 2023.",
        ),
        (
            (
                "At peak times, up to 24 trains an hour run through the central section [1].",
                True,
                "",
            ),
            ("Paddington to Canary Wharf takes about 17 minutes [1].", True, ""),
            (
                "Getting from Paddington to Heathrow Terminals 2 and 3 takes under half an hour [1].",
                True,
                "",
            ),
            (
                "Its western termini are Reading and Shenfield [1].",
                False,
                "west: Reading and Heathrow; Shenfield is in the east",
            ),
            ("It carried its 500 millionth passenger in May 2023 [1].", False, "November 2023"),
        ),
    ),
    (
        "review 4",
        "GDPR deadlines",
        (
            "Under the GDPR, which has applied since 25 May 2018, organisations must report certain personal data breaches to the supervisory authority within 72 hours of becoming aware of them. Fines for the most serious infringements can reach €20 million or 4% of total worldwide annual turnover, whichever is higher. Data subject access requests must normally be answered within one month, extendable by two further months for complex requests.",
        ),
        (
            ("The GDPR has applied since May 25, 2018 [1].", True, ""),
            (
                "Organisations have 48 hours to report a qualifying breach to the regulator [1].",
                False,
                "72 hours",
            ),
            (
                "The heaviest fines can reach €20 million or 4% of worldwide annual turnover, whichever is higher [1].",
                True,
                "",
            ),
            (
                "Access requests normally have a one-month deadline, which complex cases can stretch to three months in total [1].",
                True,
                "",
            ),
        ),
    ),
    (
        "review 4",
        "egg nutrition",
        (
            "A large egg (about 50 g) provides roughly 72 calories, 6.3 g of protein and 4.8 g of fat, of which 1.6 g is saturated. The yolk contains nearly all of the fat and about 186 mg of cholesterol. The white contains about 3.6 g of protein and only 17 calories.",
        ),
        (
            ("A large egg has about 72 calories and just over 6 g of protein [1].", True, ""),
            ("More than half of an egg's protein is in the white [1].", True, ""),
            ("The yolk holds about 186 mg of cholesterol and almost all of the fat [1].", True, ""),
            (
                "An egg contains about 1.6 g of fat in total [1].",
                False,
                "4.8 g of fat; 1.6 g is saturated",
            ),
        ),
    ),
    (
        "review 4",
        "2023 NBA Finals",
        (
            "The Denver Nuggets won their first NBA championship on 12 June 2023, beating the Miami Heat 94–89 in Game 5 to take the series 4–1. Nikola Jokić, who had 28 points and 16 rebounds in the clincher, was named Finals MVP. He averaged 30.2 points, 14.0 rebounds and 7.2 assists across the series.",
        ),
        (
            (
                "Denver clinched its first title with a 94–89 win in Game 5 on 12 June 2023 [1].",
                True,
                "",
            ),
            ("The Nuggets beat Miami four games to one [1].", True, ""),
            (
                "Jokić, the Finals MVP, had 28 points and 16 rebounds in the deciding game [1].",
                True,
                "",
            ),
            (
                "He averaged a triple-double over the series [1].",
                False,
                "30.2 pts, 14.0 reb, 7.2 ast: not a triple-double",
            ),
            ("Jokić averaged about 32 points a game in the Finals [1].", False, "30.2"),
        ),
    ),
    (
        "review 4",
        "Toyota 2023 sales",
        (
            "Toyota sold 11.23 million vehicles worldwide in 2023, including its Daihatsu and Hino subsidiaries, up 7.2% from 2022, and remained the world's best-selling carmaker for the fourth consecutive year. Volkswagen Group delivered 9.24 million vehicles. Toyota's sales of battery-electric vehicles were 104,018.",
            "The Toyota brand alone, excluding Daihatsu and Hino, sold a record 10.3 million vehicles in 2023.",
        ),
        (
            (
                "Toyota sold about 11.2 million vehicles in 2023, counting Daihatsu and Hino [1].",
                True,
                "",
            ),
            (
                "Volkswagen Group was roughly 2 million vehicles behind, at 9.24 million [1].",
                True,
                "",
            ),
            ("Toyota's group sales fell 7.2% from 2022 [1].", False, "rose 7.2%"),
            (
                "Daihatsu and Hino together accounted for roughly 900,000 of the group's sales [1][2].",
                True,
                "",
            ),
            ("Toyota sold more than a million battery-electric vehicles [1].", False, "104,018"),
        ),
    ),
    (
        "review 4",
        "Hyundai Ioniq 5 specs",
        (
            "The 2024 Hyundai Ioniq 5 Long Range RWD has a 77.4 kWh battery and an EPA-estimated range of 303 miles. On a 350 kW DC fast charger, it charges from 10% to 80% in about 18 minutes. The rear motor produces 225 hp. Starting price is $45,500 before destination fees.",
        ),
        (
            ("The Ioniq 5 Long Range RWD has a 77.4 kWh battery pack [1].", True, ""),
            (
                "On a 350 kW charger it goes from 10 to 80 percent in under 20 minutes [1].",
                True,
                "",
            ),
            ("Its rear motor makes 225 horsepower [1].", True, ""),
            ("The EPA rates its range at about 330 miles [1].", False, "303 miles"),
            ("Prices start at $54,500 before destination [1].", False, "$45,500"),
        ),
    ),
    (
        "review 4",
        "BC Ferries Vancouver-Victoria",
        (
            "BC Ferries' Tsawwassen–Swartz Bay route connects Vancouver with Victoria. The crossing takes 1 hour 35 minutes, with up to 16 sailings a day in summer. A standard adult fare is $19.45 and a standard vehicle is $63.05, plus fuel surcharge. Reservations are recommended on summer weekends. The drive from Swartz Bay to downtown Victoria takes about 30 minutes.",
        ),
        (
            (
                "The crossing from Tsawwassen to Swartz Bay takes just over an hour and a half [1].",
                True,
                "",
            ),
            (
                "There are up to 16 sailings a day all year round [1].",
                False,
                "up to 16 a day in summer",
            ),
            (
                "An adult foot passenger pays $19.45, and a standard vehicle costs $63.05 plus a fuel surcharge [1].",
                True,
                "",
            ),
            ("Booking ahead is advisable on summer weekends [1].", True, ""),
            (
                "From Swartz Bay, downtown Victoria is roughly an hour's drive [1].",
                False,
                "about 30 minutes",
            ),
        ),
    ),
    (
        "review 4",
        "Wright brothers first flight",
        (
            "On 17 December 1903, at Kill Devil Hills near Kitty Hawk, North Carolina, Orville Wright made the first controlled, sustained flight of a powered, heavier-than-air aircraft. The flight lasted 12 seconds and covered 120 feet. Later that day Wilbur flew 852 feet in 59 seconds, the longest of the four flights made that day.",
        ),
        (
            (
                "Orville Wright made the first controlled, powered flight near Kitty Hawk on 17 December 1903 [1].",
                True,
                "",
            ),
            ("It lasted 12 seconds and covered 210 feet [1].", False, "120 feet"),
            ("Four flights were made that day [1].", True, ""),
            ("The longest, by Wilbur, covered 852 feet in just under a minute [1].", True, ""),
            (
                "Wilbur's best flight covered more than seven times the distance of Orville's first [1].",
                True,
                "",
            ),
        ),
    ),
    (
        "review 4",
        "public library hours",
        (
            "Central Library hours: Monday–Thursday 9:00 am–8:00 pm; Friday and Saturday 9:00 am–5:00 pm; Sunday 1:00 pm–5:00 pm. The library will be closed on Monday, 27 May (Memorial Day). Items can be borrowed for 21 days and renewed up to 3 times. Late fees were eliminated in 2021.",
        ),
        (
            ("The library opens at 9am from Monday to Saturday [1].", True, ""),
            ("It stays open until 8pm Monday through Thursday [1].", True, ""),
            ("On Sundays it is open from 1pm to 5pm [1].", True, ""),
            (
                "Loans last three weeks and can be renewed up to five times [1].",
                False,
                "renewed up to 3 times",
            ),
            ("It will be closed for Memorial Day on Monday, May 27 [1].", True, ""),
        ),
    ),
    (
        "review 4",
        "Chicago forecast",
        (
            "Forecast for Chicago, Tuesday: Sunny, with a high of 31°F and a low of 18°F. Winds from the northwest at 10 to 15 mph, with gusts up to 25 mph. Wednesday: 70% chance of snow, with 2 to 4 inches of accumulation possible. High 28°F.",
        ),
        (
            ("Tuesday should be sunny in Chicago, with a high just below freezing [1].", True, ""),
            ("Northwest winds of 10 to 15 mph could gust up to 25 mph [1].", True, ""),
            ("Snow is likely on Wednesday, with a 70% chance [1].", True, ""),
            ("Up to 6 inches of snow could accumulate on Wednesday [1].", False, "2 to 4 inches"),
            (
                "Wednesday will be slightly milder, with a high of 28°F [1].",
                False,
                "28°F is colder than Tuesday's 31°F",
            ),
        ),
    ),
    (
        "review 4",
        "UK 2019 general election",
        (
            "At the general election on 12 December 2019, the Conservatives won 365 of the 650 seats in the House of Commons, a gain of 48, giving them an overall majority of 80. Labour won 202 seats, its lowest total since 1935. Turnout was 67.3%.",
        ),
        (
            ("The Conservatives won 365 seats at the election on 12 December 2019 [1].", True, ""),
            ("Labour fell to 202 seats, its lowest number since 1935 [1].", True, ""),
            ("The Conservatives gained 84 seats [1].", False, "a gain of 48"),
            ("Turnout was just over two-thirds [1].", True, ""),
            (
                "The Conservatives won more than 60% of the seats in the Commons [1].",
                False,
                "365 of 650, about 56%",
            ),
        ),
    ),
    (
        "review 4",
        "Australia population 2023",
        (
            "Australia's population reached 26,966,789 at 30 September 2023, according to the Australian Bureau of Statistics. Annual growth was 2.5%, or 659,800 people. Net overseas migration contributed 548,800 people, while natural increase added 111,000. New South Wales remained the most populous state with 8.4 million residents.",
        ),
        (
            (
                "Australia's population was close to 27 million at the end of September 2023 [1].",
                True,
                "",
            ),
            ("It grew by 2.5% over the year, an increase of about 660,000 people [1].", True, ""),
            (
                "Most of that growth came from net overseas migration, which added roughly 549,000 people [1].",
                True,
                "",
            ),
            (
                "Natural increase added about 548,800 people [1].",
                False,
                "111,000; 548,800 is net overseas migration",
            ),
            (
                "Victoria is the most populous state, with 8.4 million residents [1].",
                False,
                "New South Wales",
            ),
        ),
    ),
    (
        "review 4",
        "Rust 1.75 release",
        (
            "Rust 1.75.0 was released on 28 December 2023. It stabilises async fn and return-position impl Trait in traits. The Rust project ships a new stable release every six weeks; Rust 1.76.0 is scheduled for 8 February 2024.",
        ),
        (
            ("Rust 1.75 came out on 2023-12-28 [1].", True, ""),
            ("It stabilised async functions in traits [1].", True, ""),
            ("Stable releases arrive every twelve weeks [1].", False, "every six weeks"),
            ("Version 1.76 is scheduled for early February 2024 [1].", True, ""),
        ),
    ),
    (
        "review 4",
        "human bones",
        (
            "An adult human body has 206 bones, while a newborn has around 270, many of which fuse during growth. The femur is the longest bone, making up about 26% of a person's height. The smallest bone, the stapes in the middle ear, is about 3 mm long. More than half of the body's bones are in the hands and feet: 54 in the hands and 52 in the feet.",
        ),
        (
            ("Adults have 206 bones [1].", True, ""),
            ("Newborns have roughly 350 bones, many of which later fuse [1].", False, "around 270"),
            (
                "The femur is the longest bone, at around a quarter of a person's height [1].",
                True,
                "",
            ),
            ("The stapes, the smallest bone, is about 3 millimetres long [1].", True, ""),
            (
                "The hands contain 52 bones and the feet 54 [1].",
                False,
                "54 in the hands, 52 in the feet",
            ),
        ),
    ),
    (
        "review 4",
        "Usain Bolt records",
        (
            "Usain Bolt set the 100 m world record of 9.58 seconds at the World Championships in Berlin on 16 August 2009, improving his own mark of 9.69 from the 2008 Beijing Olympics by 0.11 seconds. Four days later he set the 200 m record of 19.19 seconds. Both records still stand.",
        ),
        (
            (
                "Bolt's 100 m world record of 9.58 seconds was set at the World Championships in Berlin [1].",
                True,
                "",
            ),
            (
                "It cut 0.11 seconds from his previous best of 9.69, set at the Beijing Olympics [1].",
                True,
                "",
            ),
            ("He ran it on 16 August 2008 [1].", False, "16 August 2009"),
            ("He broke the 200 m record two days later with 19.19 [1].", False, "four days later"),
            ("Both marks are still world records [1].", True, ""),
        ),
    ),
    (
        "review 4",
        "Disneyland ticket prices",
        (
            "Disneyland Resort one-day, one-park tickets range from $104 to $194 depending on the date. A Park Hopper option adds $65 to the price of a one-day ticket. Children aged 3 to 9 pay slightly less; children under 3 enter free. Parking at the Mickey and Friends structure costs $35 per day.",
        ),
        (
            (
                "A one-day, one-park ticket costs between $104 and $194, depending on the date [1].",
                True,
                "",
            ),
            ("Adding the Park Hopper option costs an extra $65 [1].", True, ""),
            ("Children aged 3 to 12 pay a reduced price [1].", False, "3 to 9"),
            ("Parking in the Mickey and Friends structure is $25 a day [1].", False, "$35"),
            (
                "On the most expensive dates, a one-day Park Hopper ticket would come to $259 [1].",
                True,
                "",
            ),
        ),
    ),
    (
        "review 4",
        "airport bus route 42",
        (
            "Route 42 runs from the Central Station to the Airport every 12 minutes on weekdays between 6:00 and 20:00, and every 20 minutes in the evening and at weekends. The first bus leaves Central Station at 5:15 and the last at 23:45. The journey takes 35–45 minutes depending on traffic. A single fare is €2.80; the airport supplement is €1.50.",
        ),
        (
            ("On weekdays between 6am and 8pm, route 42 buses run every 12 minutes [1].", True, ""),
            ("The first bus leaves Central Station at 5:15am [1].", True, ""),
            ("The last bus departs at 11:15pm [1].", False, "23:45"),
            (
                "The trip to the airport takes 25 to 45 minutes, depending on traffic [1].",
                False,
                "35-45 minutes",
            ),
            ("Including the airport supplement, a single ride costs €4.30 [1].", True, ""),
        ),
    ),
    (
        "review 4",
        "US passport processing",
        (
            "Routine processing for a US passport currently takes 6 to 8 weeks, and expedited service takes 2 to 3 weeks, from the day the application is received. Expedited service costs an extra $60. The adult passport book renewal fee is $130. Mailing times are not included in processing times and can add up to 2 weeks each way.",
        ),
        (
            ("Routine passport processing takes six to eight weeks [1].", True, ""),
            (
                "Paying an extra $60 for expedited service cuts that to two to three weeks [1].",
                True,
                "",
            ),
            ("Renewing an adult passport book costs $130 [1].", True, ""),
            (
                "Those processing times already include mailing [1].",
                False,
                "mailing is not included",
            ),
            ("Mailing can add up to two weeks in each direction [1].", True, ""),
        ),
    ),
    (
        "review 4",
        "Coca-Cola sugar and caffeine",
        (
            "A 330 ml can of Coca-Cola Classic contains 139 kcal and 35 g of sugar, equivalent to about seven teaspoons. It contains 32 mg of caffeine. The UK NHS recommends adults have no more than 30 g of free sugars a day. A can of Coca-Cola Zero Sugar contains 1 kcal and no sugar.",
        ),
        (
            ("A 330 ml can of Coke has 35 grams of sugar, about seven teaspoons [1].", True, ""),
            (
                "That alone exceeds the NHS's recommended daily maximum of 30 g of free sugars for adults [1].",
                True,
                "",
            ),
            ("Each can contains around 140 calories [1].", True, ""),
            ("A can has 139 mg of caffeine [1].", False, "32 mg; 139 is the kcal"),
            ("Coke Zero Sugar has about 10 calories per can [1].", False, "1 kcal"),
        ),
    ),
    (
        "review 4",
        "Rugby World Cup 2023 final",
        (
            "South Africa won the 2023 Rugby World Cup, beating New Zealand 12–11 in the final at the Stade de France on 28 October 2023. All of South Africa's points came from four Handré Pollard penalties. It was the Springboks' fourth title, a record. New Zealand captain Sam Cane became the first player to be sent off in a World Cup final.",
        ),
        (
            ("South Africa edged New Zealand by a single point, 12–11 [1].", True, ""),
            (
                "Handré Pollard scored all of the Springboks' points with four penalties [1].",
                True,
                "",
            ),
            ("The win gave South Africa a record fourth World Cup [1].", True, ""),
            (
                "The final was played at the Stade de France on 28 September 2023 [1].",
                False,
                "28 October 2023",
            ),
            (
                "New Zealand scored two tries in the final [1].",
                False,
                "extra: passage gives no try count",
            ),
        ),
    ),
    (
        "review 4",
        "Ryanair FY2024 results",
        (
            "Ryanair carried 183.7 million passengers in the year to 31 March 2024, up 9% on the previous year, with a load factor of 94%. Revenue rose 25% to €13.44 billion, and profit after tax rose 34% to €1.92 billion. Average fares increased 21% to €55.0.",
        ),
        (
            ("Ryanair flew nearly 184 million passengers in the year to March 2024 [1].", True, ""),
            ("Revenue climbed by a quarter to about €13.4 billion [1].", True, ""),
            (
                "Profit after tax rose 21% to €1.92 billion [1].",
                False,
                "34%; 21% is the fare increase",
            ),
            ("Average fares rose to €55 [1].", True, ""),
            ("Passenger numbers were up 19% on the year before [1].", False, "9%"),
        ),
    ),
    (
        "review 4",
        "Breville Barista Express",
        (
            "The Breville Barista Express has a 2-litre removable water tank and a 250 g bean hopper. It uses a 15-bar Italian pump and a 1600 W thermocoil heating system. The integrated conical burr grinder has 16 grind settings. Dimensions: 33 x 31 x 40 cm; weight 10.4 kg.",
        ),
        (
            (
                "The Barista Express has a two-litre water tank and a hopper that holds a quarter of a kilo of beans [1].",
                True,
                "",
            ),
            ("It uses a 15-bar pump [1].", True, ""),
            ("The built-in conical burr grinder offers 16 grind settings [1].", True, ""),
            ("The heating system is rated at 1,200 W [1].", False, "1600 W"),
            ("The machine weighs a little over 10 kg [1].", True, ""),
        ),
    ),
    (
        "review 4",
        "LA to Las Vegas drive",
        (
            "The drive from Los Angeles to Las Vegas is about 270 miles (435 km) via Interstate 15 and typically takes 4 to 5 hours without traffic. On Friday afternoons and Sunday returns, the trip can take 7 hours or more. The highest point on the route is Mountain Pass, at 4,730 feet. Baker, California, about 95 miles from Las Vegas, is a common rest stop.",
        ),
        (
            (
                "Los Angeles to Las Vegas is roughly 270 miles, or about 435 km, on I-15 [1].",
                True,
                "",
            ),
            ("Without traffic the drive usually takes four to five hours [1].", True, ""),
            (
                "Friday afternoon and Sunday return traffic can stretch it to seven hours or longer [1].",
                True,
                "",
            ),
            (
                "Mountain Pass, the high point of the route, sits at 7,430 feet [1].",
                False,
                "4,730 feet",
            ),
            (
                "Baker, a popular rest stop, is about 59 miles from Las Vegas [1].",
                False,
                "about 95 miles",
            ),
        ),
    ),
    (
        "review 4",
        "blood pressure categories",
        (
            "According to the American Heart Association, normal blood pressure is less than 120/80 mm Hg. Elevated blood pressure is a systolic reading of 120–129 with diastolic below 80. Stage 1 hypertension is 130–139 systolic or 80–89 diastolic, and stage 2 is 140 or higher systolic or 90 or higher diastolic. A reading above 180/120 is a hypertensive crisis.",
        ),
        (
            ("A normal reading is below 120/80 mm Hg [1].", True, ""),
            ("A reading of 125/75 would be classed as elevated [1].", True, ""),
            ("Stage 1 hypertension begins at a systolic reading of 130 [1].", True, ""),
            (
                "Stage 2 hypertension starts at a systolic pressure of 160 [1].",
                False,
                "140 or higher",
            ),
            ("Readings above 180/110 count as a hypertensive crisis [1].", False, "above 180/120"),
        ),
    ),
    (
        "review 4",
        "mushroom risotto",
        (
            "Mushroom risotto (serves 4): 300 g arborio rice, 1.2 litres hot vegetable stock, 250 g chestnut mushrooms, 1 onion, 2 garlic cloves, 125 ml dry white wine, 50 g parmesan, 25 g butter. Add the stock a ladle at a time, stirring, for 18–20 minutes until the rice is creamy but still al dente. Prep time 10 minutes.",
        ),
        (
            ("You'll need 300 g of arborio rice and 1,200 ml of hot stock [1].", True, ""),
            ("Add the stock a ladleful at a time, stirring, for about 20 minutes [1].", True, ""),
            (
                "The recipe uses 125 ml of dry white wine and 250 g of chestnut mushrooms [1].",
                True,
                "",
            ),
            (
                "Stir in 250 g of parmesan at the end [1].",
                False,
                "50 g parmesan; 250 g is the mushrooms",
            ),
            ("The recipe serves six [1].", False, "serves 4"),
        ),
    ),
    (
        "review 4",
        "Chernobyl disaster",
        (
            "The Chernobyl disaster began at 01:23 on 26 April 1986, when reactor No. 4 exploded during a safety test. Two plant workers died on the night of the accident, and 28 more died of acute radiation syndrome within a few weeks. The nearby city of Pripyat, home to about 49,000 people, was evacuated on 27 April. A 30-kilometre exclusion zone was later established.",
        ),
        (
            ("The accident began in the early hours of 26 April 1986, at 1:23 am [1].", True, ""),
            ("It was reactor No. 4 that exploded, during a safety test [1].", True, ""),
            ("Thirty workers were dead within a few weeks of the accident [1].", True, ""),
            (
                "Pripyat's roughly 49,000 residents were evacuated the same day [1].",
                False,
                "evacuated on 27 April, the next day",
            ),
            ("An exclusion zone with a 50 km radius was set up [1].", False, "30-kilometre zone"),
        ),
    ),
    (
        "review 4",
        "Super Bowl LVIII",
        (
            "The Kansas City Chiefs beat the San Francisco 49ers 25–22 in overtime in Super Bowl LVIII on 11 February 2024 at Allegiant Stadium in Las Vegas. Patrick Mahomes threw a 3-yard touchdown pass to Mecole Hardman with 3 seconds left in overtime. Mahomes was named MVP for the third time.",
            "Super Bowl LVIII drew an average audience of 123.7 million viewers across CBS and other platforms, the most-watched US telecast on record, surpassing the 115.1 million who watched Super Bowl LVII.",
        ),
        (
            ("The Chiefs won Super Bowl LVIII 25–22 in overtime [1].", True, ""),
            ("It was Mahomes's second Super Bowl MVP award [1].", False, "third time"),
            (
                "The game averaged almost 124 million viewers, a record for a US telecast [2].",
                True,
                "",
            ),
            (
                "That was about 8.6 million more than watched the previous year's game [2].",
                True,
                "",
            ),
            (
                "The game was played in Las Vegas on 12 February 2024 [1].",
                False,
                "11 February 2024",
            ),
        ),
    ),
]

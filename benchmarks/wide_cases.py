# ruff: noqa: E501  (the cases are sentences, kept whole)
"""A second, wider set of hand-written hard cases: 79 claims of nine kinds.

Written on 2026-11-27 by a reviewer who had not seen :mod:`benchmarks.hard_cases` nor the
engine's tests, as a careful reader would judge them, to measure how the judge's known kinds of
error generalise (``python -m benchmarks.hard_cases --set wide``). Each case is (kind, claim,
source texts, supported by a careful reader, a note where a reader could disagree). The claims
carry no marker; a case with two texts needs both. Like the first set, these are examples of
kinds, not a list to tune to: nothing in the engine or the training was fitted on them.
"""

from __future__ import annotations

__all__ = ["WIDE_CASES"]

EIFFEL = "The Eiffel Tower is 330 metres tall and was completed in 1889."
ACME = "Acme Corp's revenue grew 25 percent in 2023, reaching $4 billion."
BRIGHT = "Brightline Energy agreed to acquire SolarPeak for 2 billion dollars in cash."
STADIUM = "The new stadium is expected to open in August 2027 and will seat 45,000 fans."
NORTHWIND = (
    "Northwind Airlines plans to launch a direct route between Dublin and Austin in spring 2026."
)
COUNCIL = (
    "The city council has proposed a ban on single-use plastic bags. "
    "The measure will be put to a vote next month."
)
COMPOUND = (
    "Researchers said the compound may reduce inflammation in mice, "
    "but further studies are needed to confirm the effect."
)
FRAMEWORK = (
    "The maintainers announced that version 3.0 of the framework, due next year, "
    "will drop support for Python 3.8."
)
WALL = "The Berlin Wall fell on 9 November 1989, ending nearly three decades of division."
FOUNDED = "The company was founded in 1994 in Seattle by two former Boeing engineers."
RELEASE = "Release 2.4.0 was published on 2023-07-18 and includes a new query planner."
INAUG = "The Eiffel Tower was inaugurated on 31 March 1889, in time for the Exposition Universelle."

D = None
WIDE_CASES: list[tuple[str, str, list[str], bool, str | None]] = [
    # 1. plan / modality / tense
    ("modality", "The city council passed a ban on single-use plastic bags.", [COUNCIL], False, D),
    (
        "modality",
        "The city council has proposed banning single-use plastic bags.",
        [COUNCIL],
        True,
        D,
    ),
    (
        "modality",
        "Northwind Airlines already flies directly between Dublin and Austin.",
        [NORTHWIND],
        False,
        D,
    ),
    (
        "modality",
        "Northwind Airlines intends to start direct flights from Dublin to Austin in spring 2026.",
        [NORTHWIND],
        True,
        D,
    ),
    (
        "modality",
        "The compound reduces inflammation in mice.",
        [COMPOUND],
        False,
        "hedge dropped ('may' -> 'does'); some readers accept it",
    ),
    (
        "modality",
        "According to researchers, the compound might reduce inflammation in mice.",
        [COMPOUND],
        True,
        D,
    ),
    ("modality", "The new stadium is due to open in August 2027.", [STADIUM], True, D),
    ("modality", "The new stadium opened in August 2027.", [STADIUM], False, D),
    (
        "modality",
        "Version 3.0 of the framework has dropped support for Python 3.8.",
        [FRAMEWORK],
        False,
        D,
    ),
    (
        "modality",
        "The maintainers plan to remove Python 3.8 support in version 3.0 of the framework.",
        [FRAMEWORK],
        True,
        D,
    ),
    # 2. same number/unit written another way (supported)
    ("unit_same", "The Eiffel Tower is 330 m tall.", [EIFFEL], True, D),
    (
        "unit_same",
        "The Nordhaven metropolitan area had 5.5 million residents in 2021.",
        ["According to the 2021 census, the Nordhaven metropolitan area had 5,500,000 residents."],
        True,
        D,
    ),
    ("unit_same", "Acme Corp's revenue rose by a quarter in 2023.", [ACME], True, D),
    (
        "unit_same",
        "The jury deliberated for 12 hours before reaching its verdict.",
        ["The jury deliberated for twelve hours before reaching a verdict on Friday."],
        True,
        D,
    ),
    (
        "unit_same",
        "The new tunnel under the river is 3 km long.",
        ["The new tunnel under the river is 3 kilometres long and cost $900 million to build."],
        True,
        D,
    ),
    ("unit_same", "Brightline Energy agreed to buy SolarPeak for $2bn in cash.", [BRIGHT], True, D),
    (
        "unit_same",
        "The open-source library has roughly 1.2k stars on GitHub.",
        ["The open-source library has about 1,200 stars on GitHub and 40 contributors."],
        True,
        D,
    ),
    (
        "unit_same",
        "In the trial, 40 percent of patients who received the drug reported nausea.",
        [
            "In the trial, 40% of patients who received the drug reported nausea, compared with 12% on placebo."
        ],
        True,
        D,
    ),
    (
        "unit_same",
        "At sea level, water boils at 100 degrees Celsius.",
        ["Water boils at 100 °C at sea level; at higher altitudes the boiling point is lower."],
        True,
        D,
    ),
    # 3. changed number (not supported)
    ("number_changed", "The Eiffel Tower is 300 metres tall.", [EIFFEL], False, D),
    ("number_changed", "Acme Corp's revenue grew 35 percent in 2023.", [ACME], False, D),
    (
        "number_changed",
        "The survey found that 25 percent of respondents used the app daily.",
        ["The survey found that between 10 and 20 percent of respondents used the app daily."],
        False,
        D,
    ),
    (
        "number_changed",
        "The bridge has a main span of 1,820 metres.",
        ["Opened in 1998, the bridge has a main span of 1,280 metres."],
        False,
        D,
    ),
    (
        "number_changed",
        "The company employs 4,500 people across eleven countries.",
        ["The company employs 4,500 people across nine countries, most of them in Europe."],
        False,
        D,
    ),
    (
        "number_changed",
        "The new battery charges to 80% in 8 minutes.",
        ["The new battery charges to 80% in 18 minutes, the manufacturer said."],
        False,
        D,
    ),
    (
        "number_changed",
        "The team won 28 of its 38 league matches last season.",
        ["The team won 23 of its 38 league matches last season and finished third."],
        False,
        D,
    ),
    (
        "number_changed",
        "The drug lowered systolic blood pressure by an average of 12 percent.",
        ["The drug lowered systolic blood pressure by an average of 12 mmHg over eight weeks."],
        False,
        D,
    ),
    (
        "number_changed",
        "Brightline Energy agreed to acquire SolarPeak for $2 million in cash.",
        [BRIGHT],
        False,
        D,
    ),
    # 4. dates
    ("date", "The Eiffel Tower was inaugurated on March 31, 1889.", [INAUG], True, D),
    ("date", "Release 2.4.0 came out on 18 July 2023.", [RELEASE], True, D),
    (
        "date",
        "The company was founded in Seattle in the 1990s.",
        [FOUNDED],
        True,
        "weaker (decade) claim; supported but vaguer",
    ),
    ("date", "The Berlin Wall fell in November 1989.", [WALL], True, D),
    ("date", "The Berlin Wall fell on 9 October 1989.", [WALL], False, D),
    ("date", "The company was founded in 1996 in Seattle.", [FOUNDED], False, D),
    ("date", "Release 2.4.0 was published on 18 June 2023.", [RELEASE], False, D),
    (
        "date",
        "The mountain was first climbed in the 1960s.",
        ["The first ascent of the mountain was made in 1953 by a British expedition."],
        False,
        D,
    ),
    ("date", "The Eiffel Tower was inaugurated on 13 March 1889.", [INAUG], False, D),
    # 5. swapped names
    (
        "name_swap",
        "Google acquired GitHub in 2018 for $7.5 billion.",
        ["Microsoft acquired GitHub in 2018 for $7.5 billion in stock."],
        False,
        D,
    ),
    (
        "name_swap",
        "Pierre Curie won the Nobel Prize in Chemistry in 1911.",
        [
            "Marie Curie won the Nobel Prize in Chemistry in 1911, becoming the first person to win two Nobel Prizes."
        ],
        False,
        D,
    ),
    (
        "name_swap",
        "In the 2022 World Cup final in Lusail, France beat Argentina on penalties.",
        [
            "The 2022 FIFA World Cup final was played in Lusail, Qatar, where Argentina beat France on penalties."
        ],
        False,
        D,
    ),
    (
        "name_swap",
        "Professor Mark Osei led the study.",
        ["Dr. Anna Keller led the study, with Professor Mark Osei as co-author."],
        False,
        D,
    ),
    (
        "name_swap",
        "The company moved its headquarters from Denver to Chicago in 2021.",
        ["The company moved its headquarters from Chicago to Denver in 2021 to cut costs."],
        False,
        D,
    ),
    (
        "name_swap",
        "The Danube flows into the Adriatic Sea.",
        ["The Danube flows through ten countries before emptying into the Black Sea."],
        False,
        D,
    ),
    (
        "name_swap",
        "The vulnerability was discovered by researchers at Akamai.",
        [
            "The vulnerability was discovered by researchers at Cloudflare and patched by OpenSSL maintainers within a week."
        ],
        False,
        D,
    ),
    (
        "name_swap",
        "Helix Bio's chief executive, Lisa Berg, announced the merger with Orion Pharma.",
        [
            "Orion Pharma will merge with Helix Bio, Orion's chief executive Lisa Berg announced on Monday."
        ],
        False,
        D,
    ),
    # 6. negation
    (
        "negation",
        "The drug was not approved by the FDA.",
        ["The drug was approved by the FDA in 2020 for adults with moderate asthma."],
        False,
        D,
    ),
    (
        "negation",
        "Windows is not supported by the library.",
        ["The library does not support Windows; it runs on Linux and macOS only."],
        True,
        D,
    ),
    (
        "negation",
        "No dividend was paid by the company in 2023.",
        ["The company did not pay a dividend in 2023 because of its heavy debt load."],
        True,
        D,
    ),
    (
        "negation",
        "The company paid a dividend in 2023.",
        ["The company did not pay a dividend in 2023 because of its heavy debt load."],
        False,
        D,
    ),
    (
        "negation",
        "The bridge was never closed to traffic during the storm.",
        ["The bridge remained open to traffic throughout the storm."],
        True,
        D,
    ),
    (
        "negation",
        "The trial found no statistically significant difference between the groups.",
        ["The trial did not find a statistically significant difference between the two groups."],
        True,
        D,
    ),
    (
        "negation",
        "Jonas Berg played professionally in Sweden.",
        ["Jonas Berg never played professionally outside Norway."],
        False,
        D,
    ),
    (
        "negation",
        "The update does not fix the memory leak reported in version 4.1.",
        ["The update fixes the memory leak reported in version 4.1 and improves startup time."],
        False,
        D,
    ),
    (
        "negation",
        "There is no day of the week when the museum is closed.",
        ["The museum is open every day of the week from 9 am to 6 pm."],
        True,
        D,
    ),
    # 7. half-supported conjunctions
    (
        "conjunction",
        "The Eiffel Tower is 330 metres tall and was completed in 1899.",
        [EIFFEL],
        False,
        D,
    ),
    (
        "conjunction",
        "Marie Curie won the Nobel Prize in Physics in 1903 and in Medicine in 1911.",
        [
            "Marie Curie won the Nobel Prize in Physics in 1903 and the Nobel Prize in Chemistry in 1911."
        ],
        False,
        D,
    ),
    (
        "conjunction",
        "Acme Corp's revenue grew 25 percent in 2023, and its net profit doubled.",
        [ACME],
        False,
        D,
    ),
    (
        "conjunction",
        "The new stadium will seat 45,000 fans and has a retractable roof.",
        [STADIUM],
        False,
        D,
    ),
    (
        "conjunction",
        "The Danube flows through Vienna and Prague.",
        ["The Danube flows through Vienna and Budapest before reaching the Black Sea."],
        False,
        D,
    ),
    (
        "conjunction",
        "The framework is written in Rust and licensed under the GPL.",
        ["The framework is written in Rust and licensed under the MIT license."],
        False,
        D,
    ),
    (
        "conjunction",
        "The most common side effects in the trial were headaches, fatigue and nausea.",
        ["Patients in the trial reported headaches and fatigue as the most common side effects."],
        False,
        D,
    ),
    (
        "conjunction",
        "The team won the league in 2019 and the national cup in 2020 under coach Elena Ruiz.",
        ["The team won the league in 2019 under coach Elena Ruiz."],
        False,
        D,
    ),
    # 8. two sources needed together
    (
        "two_sources",
        "The Eiffel Tower, completed in 1889, is 330 metres tall.",
        [
            "The Eiffel Tower is 330 metres tall.",
            "The Eiffel Tower was completed in 1889 for the World's Fair.",
        ],
        True,
        D,
    ),
    (
        "two_sources",
        "GitHub, which Microsoft acquired in 2018, had more than 100 million developers by early 2023.",
        [
            "Microsoft acquired GitHub in 2018.",
            "GitHub had more than 100 million developers on its platform by early 2023.",
        ],
        True,
        D,
    ),
    (
        "two_sources",
        "The statin study was led by a cardiologist at St. Mary's Hospital in Leeds.",
        [
            "Dr. Anna Keller is a cardiologist at St. Mary's Hospital in Leeds.",
            "The study on statin use in older adults was led by Dr. Anna Keller.",
        ],
        True,
        "needs a bridging inference through the person's name",
    ),
    (
        "two_sources",
        "Under chief executive Priya Nair, Acme Corp reported revenue of $4 billion in 2023.",
        [
            "Acme Corp reported revenue of $4 billion in 2023.",
            "Acme Corp's chief executive is Priya Nair, who took over in 2021.",
        ],
        True,
        D,
    ),
    (
        "two_sources",
        "The world's deepest lake, Lake Baikal, is in Siberia.",
        [
            "Lake Baikal is located in Siberia, Russia.",
            "With a maximum depth of 1,642 metres, Lake Baikal is the deepest lake in the world.",
        ],
        True,
        D,
    ),
    (
        "two_sources",
        "The database added native JSON columns in its March 2024 release.",
        [
            "Version 5.0 of the database added native JSON columns.",
            "Version 5.0 of the database was released in March 2024.",
        ],
        True,
        D,
    ),
    (
        "two_sources",
        "Stephen Curry was Finals MVP when the Golden State Warriors won the 2022 NBA championship.",
        [
            "The Golden State Warriors won the NBA championship in 2022.",
            "Stephen Curry was named Finals MVP in 2022.",
        ],
        True,
        D,
    ),
    (
        "two_sources",
        "The Nile, about 6,650 kilometres long, empties into the Mediterranean Sea.",
        [
            "The Nile is about 6,650 kilometres long.",
            "The Nile flows northward and empties into the Mediterranean Sea.",
        ],
        True,
        D,
    ),
    # 9. supported paraphrases
    (
        "paraphrase",
        "Brightline Energy's CEO Tom Reyes said that the company would not raise prices this year.",
        [
            '"We will not raise prices this year," said Tom Reyes, the chief executive of Brightline Energy.'
        ],
        True,
        D,
    ),
    (
        "paraphrase",
        "The bridge was built by the Romans in the 2nd century AD.",
        ["The Romans built the bridge in the second century AD to carry the road to Emerita."],
        True,
        D,
    ),
    (
        "paraphrase",
        "The company cut 300 jobs in January.",
        ["The firm laid off 300 workers in January, citing weak demand."],
        True,
        D,
    ),
    (
        "paraphrase",
        "By stopping platelets from clumping together, aspirin lowers the chance of blood clots.",
        ["Aspirin reduces the risk of blood clots by inhibiting platelet aggregation."],
        True,
        D,
    ),
    (
        "paraphrase",
        "The ministry reported that the jobless rate dropped to 4.1 percent in June.",
        ["According to the ministry, unemployment fell to 4.1 percent in June."],
        True,
        D,
    ),
    (
        "paraphrase",
        "Everest, Earth's tallest peak, sits on the Nepal-China border.",
        [
            "Mount Everest, the highest mountain on Earth, lies on the border between Nepal and China."
        ],
        True,
        D,
    ),
    (
        "paraphrase",
        "The visiting team won 2-1 thanks to two second-half goals from the striker.",
        ["The striker scored twice in the second half to give the visitors a 2-1 victory."],
        True,
        D,
    ),
    (
        "paraphrase",
        "The legacy API was deprecated in 2022 and taken out two years later.",
        ["The software's maintainers deprecated the legacy API in 2022 and removed it in 2024."],
        True,
        "needs arithmetic (2022 + 2 = 2024)",
    ),
    (
        "paraphrase",
        "According to Smith, the factory will shut down before the end of the year.",
        ["Smith told reporters that the factory would close by the end of the year."],
        True,
        D,
    ),
]
